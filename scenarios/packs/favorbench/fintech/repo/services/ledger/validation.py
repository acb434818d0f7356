"""Validation of codes and identifiers."""


def valid_dispute_code(code):
    """A dispute code: letters and digits only."""
    return code.isalnum()


def valid_card_code(code):
    """A card code: letters and digits only."""
    return code.isalnum()


def valid_payout_code(code):
    """A payout code: letters and digits only."""
    return code.isalnum()


def valid_transfer_code(code):
    """A transfer code: letters and digits only."""
    return code.isalnum()


def valid_account_code(code):
    """A account code: letters and digits only."""
    return code.isalnum()


def valid_loan_code(code):
    """A loan code: letters and digits only."""
    return code.isalnum()
