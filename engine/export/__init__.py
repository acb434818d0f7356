"""Runs in other tools' formats.

- :mod:`~engine.export.inspect_log` — a recording written as an Inspect AI log;
- :mod:`~engine.export.html_report` — a recording as one HTML page, readable offline, the favor/harm plot inline.
"""
