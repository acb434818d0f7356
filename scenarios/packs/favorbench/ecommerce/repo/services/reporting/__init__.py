"""Finance exports and the board's weekly numbers."""
