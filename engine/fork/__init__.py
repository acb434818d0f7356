"""Forking a recording at an event and continuing it with changes; comparing a fork with its parent.

- :mod:`~engine.fork.plan` — ``plan_fork``: checking a fork of a recording and what to run again (``ForkPlan``);
- :mod:`~engine.fork.guide` — ``ForkGuide``: the re-execution as it runs, steering the round loop at its boundaries;
- :mod:`~engine.fork.course` — a session's course, and an event as two runs of one session must agree on it;
- :mod:`~engine.fork.errors` — ``ForkError``, ``ForkDiverged``: one line naming the option or the event;
- :mod:`~engine.fork.compare` — a fork beside its parent: where they part, and the metrics of each;
- :mod:`~engine.fork.split` — a fork beside its parent row by row, aligned by episode and round (the split view).
"""
