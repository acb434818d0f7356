"""The workspace agents act in, and everything that watches it. Imports only :mod:`channel` of
scopewatch's own packages; the engine opens a sandbox with :mod:`sandbox.backends.opener` and uses it
through :mod:`sandbox.protocol`, never a backend or the parts one is made of (an import-linter contract).

- :mod:`sandbox.protocol` — the :class:`~sandbox.protocol.Sandbox` protocol the engine depends on, and its results;
- :mod:`sandbox.errors` — the sandbox's errors, each one line a user or an agent can act on;
- :mod:`sandbox.workspace` — the files: the temp git repository, who may write what, what changed and whose it was;
- :mod:`sandbox.commands` — agent commands: the shell, the shim, the exec tracer, atoms, and the events they make;
- :mod:`sandbox.testing` — the isolated test runners (fresh and warm) and their child processes;
- :mod:`sandbox.jail` — what separates a command from the host: isolation levels and per-command limits;
- :mod:`sandbox.backends` — the backends (local, docker) and the one call that opens a sandbox.
"""
