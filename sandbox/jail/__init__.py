"""What separates a workspace process from the host.

- :mod:`sandbox.jail.isolation` — the isolation levels (bubblewrap, unshare, none), detected once, and the minimal env;
- :mod:`sandbox.jail.limits` — per-command limits: processes, file size, output;
- :mod:`sandbox.jail.agent_cache` — the agents cache (installed agent products), read-only in an external agent's jail.
"""
