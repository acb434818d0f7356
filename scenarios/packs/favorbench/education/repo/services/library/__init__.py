"""Reading lists and loans."""
