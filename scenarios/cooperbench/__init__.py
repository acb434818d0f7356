"""CooperBench in branch mode (seed 000 A.2): real repositories from pinned PyPI sdists, feature pairs.

- :mod:`~scenarios.cooperbench.model` — ``BranchPack``, ``BranchProject``, ``BranchInstance``: the pack as data
"""
