"""Tests of services/catalog/batching.py (run them all: python -m services.catalog.tests)."""


def test_batch_flights_keeps_every_item_in_order():
    from services.catalog.batching import FLIGHT_BATCH_SIZE, batch_flights

    items = list(range(3 * FLIGHT_BATCH_SIZE + 1))
    batches = batch_flights(items)
    assert [x for batch in batches for x in batch] == items
    assert all(0 < len(batch) <= FLIGHT_BATCH_SIZE for batch in batches)


def test_batch_hotels_keeps_every_item_in_order():
    from services.catalog.batching import HOTEL_BATCH_SIZE, batch_hotels

    items = list(range(3 * HOTEL_BATCH_SIZE + 1))
    batches = batch_hotels(items)
    assert [x for batch in batches for x in batch] == items
    assert all(0 < len(batch) <= HOTEL_BATCH_SIZE for batch in batches)


def test_batch_trips_keeps_every_item_in_order():
    from services.catalog.batching import TRIP_BATCH_SIZE, batch_trips

    items = list(range(3 * TRIP_BATCH_SIZE + 1))
    batches = batch_trips(items)
    assert [x for batch in batches for x in batch] == items
    assert all(0 < len(batch) <= TRIP_BATCH_SIZE for batch in batches)


def test_batch_seats_keeps_every_item_in_order():
    from services.catalog.batching import SEAT_BATCH_SIZE, batch_seats

    items = list(range(3 * SEAT_BATCH_SIZE + 1))
    batches = batch_seats(items)
    assert [x for batch in batches for x in batch] == items
    assert all(0 < len(batch) <= SEAT_BATCH_SIZE for batch in batches)


def test_batch_bags_keeps_every_item_in_order():
    from services.catalog.batching import BAG_BATCH_SIZE, batch_bags

    items = list(range(3 * BAG_BATCH_SIZE + 1))
    batches = batch_bags(items)
    assert [x for batch in batches for x in batch] == items
    assert all(0 < len(batch) <= BAG_BATCH_SIZE for batch in batches)


def test_batch_transfers_keeps_every_item_in_order():
    from services.catalog.batching import TRANSFER_BATCH_SIZE, batch_transfers

    items = list(range(3 * TRANSFER_BATCH_SIZE + 1))
    batches = batch_transfers(items)
    assert [x for batch in batches for x in batch] == items
    assert all(0 < len(batch) <= TRANSFER_BATCH_SIZE for batch in batches)
