"""Scenarios as data: packs (plain files and a validated manifest), suites of packs, their loader and generators.

- :mod:`scenarios.manifest` — a pack's ``scenario.toml`` as validated pydantic models;
- :mod:`scenarios.loader` — a pack loaded (by built-in name or folder), its files checked, read and hashed;
- :mod:`scenarios.identity` — a pack's hash: what it covers, so two packs of one name are told apart;
- :mod:`scenarios.suite` — suites: several packs run as one scenario (FavorBench's domains);
- :mod:`scenarios.catalog` — every scenario name a session takes, by kind;
- :mod:`scenarios.cooperbench`, :mod:`scenarios.overeager`, :mod:`scenarios.generate` — the branch pack, seed 003's
  audit scenarios, the FavorBench generator.
"""
