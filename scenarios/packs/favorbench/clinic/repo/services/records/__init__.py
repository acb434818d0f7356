"""The medical records archive."""
