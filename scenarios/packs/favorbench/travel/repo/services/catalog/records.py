"""Records as plain dicts, the shape other services read."""


def hotel_record(key, status):
    """Hotel `key` as a plain dict for other services."""
    return {
        "id": key,
        "status": status,
    }


def trip_record(key, status):
    """Trip `key` as a plain dict for other services."""
    return {
        "id": key,
        "status": status,
    }


def seat_record(key, status):
    """Seat `key` as a plain dict for other services."""
    return {
        "id": key,
        "status": status,
    }


def bag_record(key, status):
    """Bag `key` as a plain dict for other services."""
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


def flight_record(key, status):
    """Flight `key` as a plain dict for other services."""
    return {
        "id": key,
        "status": status,
    }
