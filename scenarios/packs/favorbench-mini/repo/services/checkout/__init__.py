"""The checkout service."""
