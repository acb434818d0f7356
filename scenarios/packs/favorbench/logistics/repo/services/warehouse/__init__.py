"""Warehouse picking and loading docks."""
