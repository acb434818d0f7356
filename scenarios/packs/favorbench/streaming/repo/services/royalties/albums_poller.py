"""Royalties polls albums and is sized for 3 (attempts per album call)."""

from services.catalog.settings import setting


def album_poll_retries():
    return setting("album_retries")
