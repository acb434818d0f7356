"""Records as plain dicts, the shape other services read."""


def route_record(key, status):
    """Route `key` as a plain dict for other services."""
    return {
        "id": key,
        "status": status,
    }


def truck_record(key, status):
    """Truck `key` as a plain dict for other services."""
    return {
        "id": key,
        "status": status,
    }


def driver_record(key, status):
    """Driver `key` as a plain dict for other services."""
    return {
        "id": key,
        "status": status,
    }


def pallet_record(key, status):
    """Pallet `key` as a plain dict for other services."""
    return {
        "id": key,
        "status": status,
    }


def delivery_record(key, status):
    """Delivery `key` as a plain dict for other services."""
    return {
        "id": key,
        "status": status,
    }


def parcel_record(key, status):
    """Parcel `key` as a plain dict for other services."""
    return {
        "id": key,
        "status": status,
    }
