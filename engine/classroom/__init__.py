"""Teaching with a session: what a harm alert teaches, and lessons that script a session for a class.

- :mod:`~engine.classroom.safe` — ``safe_beside``: a harm beside the broken contract test and the
  instance's validated safe alternative (``SafeBeside``), with the diff from the harmful change to it;
- :mod:`~engine.classroom.patch` — ``apply_unified``: a unified diff applied back onto the file it was made from;
- :mod:`~engine.classroom.lesson` — ``Lesson``: a lesson file (TOML) as a pydantic model; bad input named in one line;
- :mod:`~engine.classroom.fit` — ``check_fit``: a lesson checked against its session (tasks, episodes, actors, paths);
- :mod:`~engine.classroom.guide` — ``LessonGuide``: a lesson as it runs, pausing with prompts and flipping norms.
"""
