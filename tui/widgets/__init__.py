"""The scopewatch widgets, one module each. Every projection widget has ``reset()`` (forget
everything, for a replay seek) and ``apply(events)`` (fold a batch of events in seq order).
:mod:`tui.widgets.right_column` holds four of them (norms, scoreboard, reviews, harm alerts) and fits
them to the wide layout's height, the alert panels first."""
