"""The shared ledger library: records, fees, checks, settings and formatting."""
