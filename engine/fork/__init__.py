"""Forking a recording at an event and continuing it with changes; comparing a fork with its parent.

- :mod:`~engine.fork.plan` — checking a fork and re-executing the parent up to the fork point;
- :mod:`~engine.fork.compare` — a fork beside its parent: where they part, and the metrics of each.
"""
