"""Running whole sessions: the session a config asks for, headless or served on MQTT, one or many at once.

- :mod:`~engine.runs.sessions` — ``open_session``: the round loop with the episode kind a config's scenario names;
- :mod:`~engine.runs.runner` — one whole session headless (``run --headless``) or on a broker (``serve``);
- :mod:`~engine.runs.batch` — a session's trajectories in parallel (``--jobs``, Ray), merged into one stream.
"""
