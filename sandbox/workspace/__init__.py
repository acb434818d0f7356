"""The workspace's files: on disk, who may write them, what changed and whose change it was.

- :mod:`sandbox.workspace.repo` — the temp git repository: materialise, baseline commit, read and write entries;
- :mod:`sandbox.workspace.stale` — sandbox folders left by engines that died, found by their owner and removed;
- :mod:`sandbox.workspace.baseline` — the git baseline made once per content, written from memory for the next one;
- :mod:`sandbox.workspace.remote` — the workspace's ``origin`` (a bare repository) and its refs read around commands;
- :mod:`sandbox.workspace.gitguard` — ``.git`` guarded: hooks and program-running config rolled back, history too;
- :mod:`sandbox.workspace.gitconfig` — which git config runs programs (keys, ``!`` values, ``TRANSPORT::`` URLs);
- :mod:`sandbox.workspace.configparse` — a plain git config file's entries read in-process (else git reads it);
- :mod:`sandbox.workspace.gitplaces` — where the git guard looks, found and read without following an agent's links;
- :mod:`sandbox.workspace.cleangit` — the engine's own git on an agent's repository, with none of its config;
- :mod:`sandbox.workspace.authors` — who made each program file an agent may run, so whose changes it makes;
- :mod:`sandbox.workspace.guard` — who may write what: registered actors, the ownership refusal and its words;
- :mod:`sandbox.workspace.ownership` — the CODEOWNERS-like ownership map (globs relative to the root);
- :mod:`sandbox.workspace.paths` — the one path check (inside the workspace, normalised) and which paths are noise;
- :mod:`sandbox.workspace.reconcile` — the content cache: what changed on disk, whose change it was, rollbacks;
- :mod:`sandbox.workspace.spill` — big contents the cache knows, kept on disk in the private folder, not in memory;
- :mod:`sandbox.workspace.watcher` — watchfiles: notices changes no operation made;
- :mod:`sandbox.workspace.sentry` — inotify: whether anything changed since the last whole scan, and which of many
  watched folders had an event since the last look (the hand-over, the shim's check);
- :mod:`sandbox.workspace.snapshot` — tests on a private copy of the workspace as the event stream knows it;
- :mod:`sandbox.workspace.mirror` — a folder kept equal to a tree of entries (the warm runner's workspace);
- :mod:`sandbox.workspace.beneath` — paths under an agent-writable root reached with no symlink followed (fd walks);
- :mod:`sandbox.workspace.entries` — entries (a file's bytes, a link, a FIFO) read and put beneath their root;
- :mod:`sandbox.workspace.files` — any file an agent made, handled without blocking or recursion (FIFOs, deep trees);
- :mod:`sandbox.workspace.settled` — files read at every command known unchanged by their settled signature;
- :mod:`sandbox.workspace.outside` — writes to the private HOME and /tmp, and bytecode left in the workspace;
- :mod:`sandbox.workspace.diffs` — the one unified-diff renderer.
"""
