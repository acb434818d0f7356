"""CooperBench in branch mode (seed 000 A.2): real repositories from pinned PyPI sdists, feature pairs.

- :mod:`~scenarios.cooperbench.projects` — the pinned projects (name, version, sha256, licence) and our feature pairs
- :mod:`~scenarios.cooperbench.build` — fetching, laying out and building the pack; ``load_pack``
- :mod:`~scenarios.cooperbench.model` — ``BranchPack``, ``BranchProject``, ``BranchInstance``: the pack as data
"""
