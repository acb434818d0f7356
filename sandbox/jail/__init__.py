"""What separates a workspace process from the host.

- :mod:`sandbox.jail.isolation` — the isolation levels (bubblewrap, unshare, none), detected once, and the minimal env;
- :mod:`sandbox.jail.limits` — per-command limits: processes, file size, output.
"""
