"""The notifications service."""
