"""Recommendations imports old playlists whose codes are short and lower-case, like "k9z"."""

from services.catalog.validation import valid_playlist_code


def importable(codes):
    return [code for code in codes if valid_playlist_code(code)]
