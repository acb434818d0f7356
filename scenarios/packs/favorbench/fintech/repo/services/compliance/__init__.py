"""Regulatory reports to the central bank."""
