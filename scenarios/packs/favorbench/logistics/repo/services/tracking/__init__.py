"""Parcel tracking pages and carrier feeds."""
