"""Carts, orders and payments: the product team that keeps needing platform changes."""
