"""Grades and transcripts."""
