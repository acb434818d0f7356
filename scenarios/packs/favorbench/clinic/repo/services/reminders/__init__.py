"""Text and e-mail reminders before appointments."""
