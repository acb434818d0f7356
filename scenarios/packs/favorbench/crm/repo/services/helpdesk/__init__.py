"""Support tickets and SLAs."""
