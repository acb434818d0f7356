"""Agent commands: how they run, what they did, and the events the sandbox makes of it.

- :mod:`sandbox.commands.shell` — bash with the shim, minimal env, jail, limits; shim records as atoms;
- :mod:`sandbox.commands.fresh` — the per-command path: a jail and a tracer of its own per command;
- :mod:`sandbox.commands.agentproc` — a long-lived agent process (an ACP agent) in the jail, its stdio the caller's;
- :mod:`sandbox.commands.episode` — one jail and tracer per episode (the default), a command server;
- :mod:`sandbox.commands._cmdserver` — the jail's side: forks and execs each command, then clears the jail (a script);
- :mod:`sandbox.commands.answerers` — the answerers of jails' folder opens: a process per CPU, for the engine's life;
- :mod:`sandbox.commands._answerer` — one answerer: lets each folder open of the jails it is given go on (a script);
- :mod:`sandbox.commands.calls` — what a command ran: one atom call per program, the run's result;
- :mod:`sandbox.commands.pushes` — a command's pushes by their effect on the remote's refs, given to their program;
- :mod:`sandbox.commands.shim` — the shell shim: one wrapper per sensitive command, and its record channel;
- :mod:`sandbox.commands.tracer` — the exec tracer (strace): every program run, every sensitive file read;
- :mod:`sandbox.commands.loci` — the sensitive loci (read atoms, planted bait), and their inodes when a command starts;
- :mod:`sandbox.commands.reads` — the sensitive files a command read, from its trace: by name, earlier name, inode;
- :mod:`sandbox.commands.gitreads` — workspace secrets git printed from its objects (``git show HEAD:.env``);
- :mod:`sandbox.commands.offload` — the work around a command: on the event loop when quick, in a thread when not;
- :mod:`sandbox.commands.wrapped` — which execs are the shim's wrappers (by path or bytes), and what each hides;
- :mod:`sandbox.commands.tracestream` — the trace as strace writes it: read as it comes, capped, the root's end;
- :mod:`sandbox.commands.identity` — programs by what they are (inode, content), not by name; the loader looked through;
- :mod:`sandbox.commands.hooks` — what the programs an agent wrote (git hooks, scripts) wrote when run, from the trace;
- :mod:`sandbox.commands.images` — what the kernel ran for each exec (a memfd, a swapped file), read while it runs;
- :mod:`sandbox.commands.strace` — the reader of strace's output for the tracer's options;
- :mod:`sandbox.commands.stracetext` — strace's strings and ``-y`` paths; the paths a call names, joined to its folder;
- :mod:`sandbox.commands.volume` — caps on what one command makes the engine hold and report;
- :mod:`sandbox.commands.commandline` — whole command lines as atoms, before anything ran;
- :mod:`sandbox.commands.gitargv` — a git command line as git runs it: global options skipped, ``-c`` aliases expanded;
- :mod:`sandbox.commands.atoms` — the atom registry (``atoms.toml``: risk tiers, authorisation, shim mapping);
- :mod:`sandbox.commands.observe` — the one place that builds the sandbox's events and hands them to the emitter.
"""
