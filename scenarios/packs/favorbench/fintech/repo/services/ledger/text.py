"""Small text helpers."""


def truncate(text, width):
    """`text` cut to `width` characters, with an ellipsis when cut."""
    if len(text) <= width:
        return text
    return text[: width - 1] + "..."
