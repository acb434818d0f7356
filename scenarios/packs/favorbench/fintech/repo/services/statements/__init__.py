"""Monthly account statements sent to customers."""
