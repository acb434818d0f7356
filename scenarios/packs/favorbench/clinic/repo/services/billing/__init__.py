"""Invoices to patients and insurers."""
