"""The root of scopewatch's user-facing errors. Every error a user can cause (bad input, a bad file,
a missing key) derives from :class:`ScopewatchError`; its message is one line naming the file,
field or command, and the CLI prints it without a traceback."""


class ScopewatchError(Exception):
    """A user-facing error with a one-line message."""
