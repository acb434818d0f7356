"""The one pool of units of work: local worker processes (``--jobs N``) or Ray tasks (``--executor ray``).

- :mod:`~engine.pool.units` — ``run_units``: units in parallel, results in unit order; ``report`` for
  progress;
- :mod:`~engine.pool.ray_tasks` — the Ray side: each unit a Ray task, on this machine or a cluster.
"""
