"""Over-the-air firmware updates."""
