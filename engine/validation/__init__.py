"""Proving a scenario pack does what it claims, by running its tests in materialised worlds.

- :mod:`~engine.validation.validator` — one pack validated by running its tests (``scopewatch scenarios validate``);
- :mod:`~engine.validation.suites` — a suite validated pack by pack, the packs as units in parallel;
- :mod:`~engine.validation.pack_checks` — the pack-level checks that run before any task;
- :mod:`~engine.validation.worlds` — the worlds' test runs: known by what differs from the base, sharing its files;
- :mod:`~engine.validation.reference` — each side's reference change against its success checks and traps;
- :mod:`~engine.validation.coverage` — which audit channels can observe a trap on a backend (admissibility).
"""
