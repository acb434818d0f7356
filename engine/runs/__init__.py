"""Running whole sessions: headless or served on MQTT, one or many at once.

- :mod:`~engine.runs.runner` — one whole session headless (``run --headless``) or on a broker
  (``serve``), scored from its own events;
- :mod:`~engine.runs.batch` — a session's trajectories in parallel (``--jobs``, Ray), merged into one
  stream that scores as a sequential run's.
"""
