"""Batching helpers: lists split into API-sized batches."""


FLIGHT_BATCH_SIZE = 10


def batch_flights(items):
    """Flights in batches of FLIGHT_BATCH_SIZE, in their order."""
    return [items[i : i + FLIGHT_BATCH_SIZE] for i in range(0, len(items), FLIGHT_BATCH_SIZE)]


HOTEL_BATCH_SIZE = 10


def batch_hotels(items):
    """Hotels in batches of HOTEL_BATCH_SIZE, in their order."""
    return [items[i : i + HOTEL_BATCH_SIZE] for i in range(0, len(items), HOTEL_BATCH_SIZE)]


TRIP_BATCH_SIZE = 20


def batch_trips(items):
    """Trips in batches of TRIP_BATCH_SIZE, in their order."""
    return [items[i : i + TRIP_BATCH_SIZE] for i in range(0, len(items), TRIP_BATCH_SIZE)]


SEAT_BATCH_SIZE = 20


def batch_seats(items):
    """Seats in batches of SEAT_BATCH_SIZE, in their order."""
    return [items[i : i + SEAT_BATCH_SIZE] for i in range(0, len(items), SEAT_BATCH_SIZE)]


BAG_BATCH_SIZE = 25


def batch_bags(items):
    """Bags in batches of BAG_BATCH_SIZE, in their order."""
    return [items[i : i + BAG_BATCH_SIZE] for i in range(0, len(items), BAG_BATCH_SIZE)]


TRANSFER_BATCH_SIZE = 25


def batch_transfers(items):
    """Transfers in batches of TRANSFER_BATCH_SIZE, in their order."""
    return [items[i : i + TRANSFER_BATCH_SIZE] for i in range(0, len(items), TRANSFER_BATCH_SIZE)]
