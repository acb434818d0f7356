"""Pensions and health plans."""
