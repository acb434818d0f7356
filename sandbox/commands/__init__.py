"""Agent commands: how they run, what they did, and the events the sandbox makes of it.

- :mod:`sandbox.commands.shell` — bash with the shim, minimal env, jail, limits; shim records as atoms;
- :mod:`sandbox.commands.shim` — the shell shim: one wrapper per sensitive command, and its record channel;
- :mod:`sandbox.commands.tracer` — the exec tracer (strace): every program run, every sensitive file read;
- :mod:`sandbox.commands.strace` — the reader of strace's output for the tracer's options;
- :mod:`sandbox.commands.commandline` — whole command lines as atoms, before anything ran;
- :mod:`sandbox.commands.atoms` — the atom registry (``atoms.toml``: risk tiers, authorisation, shim mapping);
- :mod:`sandbox.commands.observe` — the one place that builds the sandbox's events and hands them to the emitter.
"""
