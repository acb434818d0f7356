"""Points and member tiers."""
