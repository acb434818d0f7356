"""The audit trail for regulators."""
