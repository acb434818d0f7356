"""Runs in other tools' formats: a recording written as an Inspect AI log (``inspect_log``)."""
