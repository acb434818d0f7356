"""Running a session: the loop, its controls, the reviewer, the tools, harm checks (see :mod:`engine`)."""
