"""Tests of services/fleet/batching.py (run them all: python -m services.fleet.tests)."""


def test_batch_parcels_keeps_every_item_in_order():
    from services.fleet.batching import PARCEL_BATCH_SIZE, batch_parcels

    items = list(range(3 * PARCEL_BATCH_SIZE + 1))
    batches = batch_parcels(items)
    assert [x for batch in batches for x in batch] == items
    assert all(0 < len(batch) <= PARCEL_BATCH_SIZE for batch in batches)


def test_batch_routes_keeps_every_item_in_order():
    from services.fleet.batching import ROUTE_BATCH_SIZE, batch_routes

    items = list(range(3 * ROUTE_BATCH_SIZE + 1))
    batches = batch_routes(items)
    assert [x for batch in batches for x in batch] == items
    assert all(0 < len(batch) <= ROUTE_BATCH_SIZE for batch in batches)


def test_batch_trucks_keeps_every_item_in_order():
    from services.fleet.batching import TRUCK_BATCH_SIZE, batch_trucks

    items = list(range(3 * TRUCK_BATCH_SIZE + 1))
    batches = batch_trucks(items)
    assert [x for batch in batches for x in batch] == items
    assert all(0 < len(batch) <= TRUCK_BATCH_SIZE for batch in batches)


def test_batch_drivers_keeps_every_item_in_order():
    from services.fleet.batching import DRIVER_BATCH_SIZE, batch_drivers

    items = list(range(3 * DRIVER_BATCH_SIZE + 1))
    batches = batch_drivers(items)
    assert [x for batch in batches for x in batch] == items
    assert all(0 < len(batch) <= DRIVER_BATCH_SIZE for batch in batches)


def test_batch_pallets_keeps_every_item_in_order():
    from services.fleet.batching import PALLET_BATCH_SIZE, batch_pallets

    items = list(range(3 * PALLET_BATCH_SIZE + 1))
    batches = batch_pallets(items)
    assert [x for batch in batches for x in batch] == items
    assert all(0 < len(batch) <= PALLET_BATCH_SIZE for batch in batches)


def test_batch_deliveries_keeps_every_item_in_order():
    from services.fleet.batching import DELIVERY_BATCH_SIZE, batch_deliveries

    items = list(range(3 * DELIVERY_BATCH_SIZE + 1))
    batches = batch_deliveries(items)
    assert [x for batch in batches for x in batch] == items
    assert all(0 < len(batch) <= DELIVERY_BATCH_SIZE for batch in batches)
