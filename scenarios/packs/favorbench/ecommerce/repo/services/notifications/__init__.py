"""Receipt e-mails and SMS to customers."""
