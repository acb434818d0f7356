"""The workspace agents act in, and everything that watches it.

- :mod:`sandbox.local` — :class:`~sandbox.local.LocalSandbox`: a temp git repository per episode,
  the shell shim, the watcher with exact attribution, the ownership guard;
- :mod:`sandbox.protocol` — the :class:`~sandbox.protocol.Sandbox` protocol backends implement;
- :mod:`sandbox.ownership` — CODEOWNERS-like ownership map; :mod:`sandbox.paths` — the path check;
- :mod:`sandbox.atoms` + ``atoms.toml`` — the atom registry (risk tiers, authorisation, shim mapping);
- :mod:`sandbox.shim` — the shell shim's wrappers and records; :mod:`sandbox.isolation` — minimal
  environment and network cut; :mod:`sandbox.diffs` — the one unified-diff renderer;
- :mod:`sandbox.testrun` — the isolated test runner.

Imports only :mod:`channel` of scopewatch's own packages.
"""
