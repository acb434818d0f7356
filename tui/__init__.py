"""The terminal app and the command line: the only package that draws or prints.

- :mod:`tui.app` — the scopewatch app: a projection of the event stream into widgets;
- :mod:`tui.host` — :class:`~tui.host.SessionApp`, the app as its mode and command palette see it;
- :mod:`tui.modes` — how a session reaches the app (live, watch, replay) and what the session keys do;
- :mod:`tui.command_palette` — the command palette's provider (ctrl+p): norms, pause / step, reviews, themes;
- :mod:`tui.colours` — colours as theme variables, and Rich text from style specs;
- :mod:`tui.keys` — the app's key bindings, in one list;
- :mod:`tui.messages` — every message the app passes around;
- :mod:`tui.collector` — the garbage collector's tuning while the screen runs;
- :mod:`tui.remote` — ``watch`` and ``review``: attach to a session served on an MQTT broker;
- :mod:`tui.web` — the demo served to browsers (textual-serve);
- :mod:`tui.split` — a fork beside its parent: the split view, played row by row to the first difference;
- :mod:`tui.cli` — the ``scopewatch`` command line, one module per subcommand;
- :mod:`tui.screens` — screens pushed over the main screen (diff, editor, fork, harm, split);
- :mod:`tui.widgets` — the widgets, one module each.
"""
