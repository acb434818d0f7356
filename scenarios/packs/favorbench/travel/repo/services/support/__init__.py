"""The support desk's tools."""
