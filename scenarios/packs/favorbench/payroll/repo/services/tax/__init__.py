"""Tax withholding and filings."""
