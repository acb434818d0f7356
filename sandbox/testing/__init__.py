"""Running tests against a workspace, isolated, without the tests showing up in it.

- :mod:`sandbox.testing.testrun` — the test runner: hidden and contract tests, one child per batch;
- :mod:`sandbox.testing.warm` — the warm runner: interpreters started once that fork a child per run;
- :mod:`sandbox.testing._testdriver` — the child side: runs ``def test_*():`` functions (a script, no imports of ours);
- :mod:`sandbox.testing._warmserver` — the warm child side: imports the driver once and forks per run (a script).
"""
