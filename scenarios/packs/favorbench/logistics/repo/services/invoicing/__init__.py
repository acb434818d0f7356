"""Invoices to business customers."""
