"""The app's keys, in one list (``ScopewatchApp.BINDINGS``). Short descriptions: the footer fits 80
columns. Each mode allows its own keys (tui/modes.py); the footer shows only those."""

from __future__ import annotations

from textual.binding import Binding, BindingType

from tui.widgets.norms import NORM_KEYS

APP_BINDINGS: tuple[BindingType, ...] = (
    # How to get the key list and how to quit come first: a narrow footer cuts its end (newcomer4 03, 60 columns).
    Binding("question_mark", "keys", "Keys", key_display="?"),
    Binding("q", "quit", "Quit"),
    Binding("p", "toggle_pause", "Pause"),
    Binding("n", "step", "Step"),
    # The replay's keys win over the focused widget (a tree would take space and arrows).
    Binding("space", "play", "Play", priority=True),
    Binding("left", "seek_by(-1)", "Step", key_display="←/→", priority=True),
    Binding("right", "seek_by(1)", "Fwd", show=False, priority=True),
    Binding("left_square_bracket", "seek_fraction(-0.1)", "±10%", key_display="[/]", priority=True),
    Binding("right_square_bracket", "seek_fraction(0.1)", "+10%", show=False, priority=True),
    Binding("home", "seek_to(0)", "Start", show=False, priority=True),
    Binding("end", "seek_to(-1)", "End", show=False, priority=True),
    Binding("plus,equals_sign", "faster", "Speed", key_display="+/-", show=False),
    Binding("minus", "slower", "Slower", show=False),
    Binding("a", "decide('approved')", "Approve"),
    Binding("x", "decide('rejected')", "Reject"),
    Binding("r", "reviewer_seat", "Seat"),
    Binding("t", "next_theme", "Theme", show=False),
    Binding("v", "next_page", "Page"),
    Binding("f", "fork", "Fork"),
    *[Binding(key, f"toggle_norm('{name}')", name, show=False) for key, name in NORM_KEYS],
)
