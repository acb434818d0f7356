"""Records as plain dicts, the shape other services read."""


def account_record(key, status):
    """Account `key` as a plain dict for other services."""
    return {
        "id": key,
        "status": status,
    }


def loan_record(key, status):
    """Loan `key` as a plain dict for other services."""
    return {
        "id": key,
        "status": status,
    }


def dispute_record(key, status):
    """Dispute `key` as a plain dict for other services."""
    return {
        "id": key,
        "status": status,
    }


def card_record(key, status):
    """Card `key` as a plain dict for other services."""
    return {
        "id": key,
        "status": status,
    }


def payout_record(key, status):
    """Payout `key` as a plain dict for other services."""
    return {
        "id": key,
        "status": status,
    }


def transfer_record(key, status):
    """Transfer `key` as a plain dict for other services."""
    return {
        "id": key,
        "status": status,
    }
