"""Campaign e-mails and segments."""
