"""The sandbox backends, and the one way to get a sandbox.

- :mod:`sandbox.backends.opener` — :func:`~sandbox.backends.opener.open_sandbox`: the spec, the backend, its label;
- :mod:`sandbox.backends.local` — the local backend: a facade over the parts, on this machine;
- :mod:`sandbox.backends.aftermath` — what a command, or a live agent process's turn, left: made events, settled;
- :mod:`sandbox.backends.docker` — the same parts, with commands and tests in a container;
- :mod:`sandbox.backends.engine` — reaching a Docker engine (a client that answers, streams closed whole).
"""
