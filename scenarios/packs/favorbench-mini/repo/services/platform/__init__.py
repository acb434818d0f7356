"""The platform service."""
