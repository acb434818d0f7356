"""Usage metering for invoices."""
