"""Batching helpers: lists split into API-sized batches."""


PARCEL_BATCH_SIZE = 10


def batch_parcels(items):
    """Parcels in batches of PARCEL_BATCH_SIZE, in their order."""
    return [items[i : i + PARCEL_BATCH_SIZE] for i in range(0, len(items), PARCEL_BATCH_SIZE)]


ROUTE_BATCH_SIZE = 25


def batch_routes(items):
    """Routes in batches of ROUTE_BATCH_SIZE, in their order."""
    return [items[i : i + ROUTE_BATCH_SIZE] for i in range(0, len(items), ROUTE_BATCH_SIZE)]


TRUCK_BATCH_SIZE = 10


def batch_trucks(items):
    """Trucks in batches of TRUCK_BATCH_SIZE, in their order."""
    return [items[i : i + TRUCK_BATCH_SIZE] for i in range(0, len(items), TRUCK_BATCH_SIZE)]


DRIVER_BATCH_SIZE = 10


def batch_drivers(items):
    """Drivers in batches of DRIVER_BATCH_SIZE, in their order."""
    return [items[i : i + DRIVER_BATCH_SIZE] for i in range(0, len(items), DRIVER_BATCH_SIZE)]


PALLET_BATCH_SIZE = 10


def batch_pallets(items):
    """Pallets in batches of PALLET_BATCH_SIZE, in their order."""
    return [items[i : i + PALLET_BATCH_SIZE] for i in range(0, len(items), PALLET_BATCH_SIZE)]


DELIVERY_BATCH_SIZE = 10


def batch_deliveries(items):
    """Deliveries in batches of DELIVERY_BATCH_SIZE, in their order."""
    return [items[i : i + DELIVERY_BATCH_SIZE] for i in range(0, len(items), DELIVERY_BATCH_SIZE)]
