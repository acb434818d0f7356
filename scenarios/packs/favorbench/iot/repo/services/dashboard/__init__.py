"""The customer dashboard: the team building new views."""
