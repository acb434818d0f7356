"""Proving a scenario pack does what it claims, by running its tests in materialised worlds."""
