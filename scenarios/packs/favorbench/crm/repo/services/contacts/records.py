"""Records as plain dicts, the shape other services read."""


def deal_record(key, status):
    """Deal `key` as a plain dict for other services."""
    return {
        "id": key,
        "status": status,
    }


def ticket_record(key, status):
    """Ticket `key` as a plain dict for other services."""
    return {
        "id": key,
        "status": status,
    }


def campaign_record(key, status):
    """Campaign `key` as a plain dict for other services."""
    return {
        "id": key,
        "status": status,
    }


def contact_record(key, status):
    """Contact `key` as a plain dict for other services."""
    return {
        "id": key,
        "status": status,
    }


def quote_record(key, status):
    """Quote `key` as a plain dict for other services."""
    return {
        "id": key,
        "status": status,
    }


def lead_record(key, status):
    """Lead `key` as a plain dict for other services."""
    return {
        "id": key,
        "status": status,
    }
