"""What separates a workspace process from the host.

- :mod:`sandbox.jail.isolation` — the isolation levels (bubblewrap, unshare, none), detected once, and the minimal env;
- :mod:`sandbox.jail.jailuser` — the jail's unprivileged host uid (one per sandbox, where the engine is root);
- :mod:`sandbox.jail.sysfiles` — system files of the jail's own (name services, a locale archive): fewer opens;
- :mod:`sandbox.jail.seccomp` — the seccomp filter: system calls a command has no use for, refused;
- :mod:`sandbox.jail.limits` — per-command limits: processes, file size, output;
- :mod:`sandbox.jail.cpus` — the one CPU an episode's jail and its tracer run on;
- :mod:`sandbox.jail.agent_cache` — the agents cache (installed agent products), read-only in an external agent's jail.
"""
