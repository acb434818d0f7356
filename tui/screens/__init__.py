"""Screens pushed over the main screen."""
