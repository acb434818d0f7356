"""The workspace agents act in, and everything that watches it.

- :mod:`sandbox.protocol` — the :class:`~sandbox.protocol.Sandbox` protocol the engine depends on,
  and its result type :class:`~sandbox.protocol.ShellResult`;
- :mod:`sandbox.backends.opener` — :func:`~sandbox.backends.opener.open_sandbox`, the one way to get a sandbox;
- :mod:`sandbox.backends.local` — :class:`~sandbox.backends.local.LocalSandbox`, the local backend: a facade over
  the parts below, with the attribution rule in its docstring; :mod:`sandbox.backends.docker` — the docker
  backend (the same parts, commands and tests in a container);
- :mod:`sandbox.jail.isolation` — the jail of each isolation level (bubblewrap, unshare, none) and the
  minimal environment; :mod:`sandbox.jail.limits` — per-command limits; :mod:`sandbox.workspace.outside` — writes
  to the private HOME and /tmp, and bytecode;
- :mod:`sandbox.workspace.repo` — the temp git repository: materialise, baseline commit, read and write
  entries, diffs against the baseline;
- :mod:`sandbox.workspace.guard` — who may write what: registered actors, the ownership refusal and its words;
- :mod:`sandbox.commands.shell` — shell commands: bash with the shim, minimal env, network cut, timeout,
  shim records classified as atoms;
- :mod:`sandbox.workspace.reconcile` — the content cache: what changed on disk, whose change it was, rollbacks;
- :mod:`sandbox.workspace.watcher` — watchfiles: notices changes no operation made;
- :mod:`sandbox.workspace.snapshot` — tests on a private copy of the workspace (restored paths, overlays);
- :mod:`sandbox.commands.observe` — the one place that builds the sandbox's events (``FileChanged``,
  ``WriteRefused``, ``ShellCommandRan``, ``ShimTampered``, ``OutsideChanged``);
- :mod:`sandbox.workspace.ownership` — CODEOWNERS-like ownership map; :mod:`sandbox.workspace.paths` — the path check;
- :mod:`sandbox.commands.atoms` + ``atoms.toml`` — the atom registry (risk tiers, authorisation, shim mapping);
- :mod:`sandbox.commands.shim` — the shell shim's wrappers and its audit channel; :mod:`sandbox.workspace.diffs` — the
  one unified-diff renderer;
- :mod:`sandbox.testing.testrun` — the isolated test runner and its :class:`~sandbox.testing.testrun.TestOutcome`.

Imports only :mod:`channel` of scopewatch's own packages.
"""
