"""The one pool of units of work: local worker processes (``--jobs N``) or Ray tasks (``--executor ray``).

- :mod:`~engine.pool.units` — ``run_units``: units in parallel, their results in unit order;
- :mod:`~engine.pool.progress` — ``report``: a unit's progress, passed to the driver wherever the unit runs;
- :mod:`~engine.pool.ray_tasks` — the Ray side: each unit a Ray task, on this machine or a cluster.
"""
