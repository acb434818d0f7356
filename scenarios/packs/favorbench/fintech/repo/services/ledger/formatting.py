"""Formatting values as text."""


def format_payout_amount(cents):
    """The amount as text, e.g. 1234.50."""
    return f"{cents / 100:.2f}"


def format_transfer_amount(cents):
    """The amount as text, e.g. 1234.50."""
    return f"{cents / 100:.2f}"


def format_account_balance(cents):
    """The balance as text, e.g. 1234.50."""
    return f"{cents / 100:.2f}"


def format_loan_rate(ratio):
    """The rate as text, e.g. 0.125."""
    return f"{ratio:.3f}"


def format_dispute_window(seconds):
    """The window as text, e.g. 125 s."""
    return f"{seconds} s"


def format_card_limit(cents):
    """The limit as text, e.g. 1234.50."""
    return f"{cents / 100:.2f}"
