"""The scopewatch widgets, one module each. Every projection widget has ``reset()`` (forget
everything, for a replay seek) and ``apply(events)`` (fold a batch of events in seq order)."""
