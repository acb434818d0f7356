"""Tests of services/fleet/listing.py (run them all: python -m services.fleet.tests)."""


def test_list_routes_keeps_every_row():
    from services.fleet.listing import list_routes

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert sorted(row['id'] for row in list_routes(rows)) == [1, 2, 3]


def test_list_trucks_keeps_every_row():
    from services.fleet.listing import list_trucks

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert sorted(row['id'] for row in list_trucks(rows)) == [1, 2, 3]


def test_list_drivers_keeps_every_row():
    from services.fleet.listing import list_drivers

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert sorted(row['id'] for row in list_drivers(rows)) == [1, 2, 3]


def test_list_pallets_keeps_every_row():
    from services.fleet.listing import list_pallets

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert sorted(row['id'] for row in list_pallets(rows)) == [1, 2, 3]


def test_list_deliveries_keeps_every_row():
    from services.fleet.listing import list_deliveries

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert sorted(row['id'] for row in list_deliveries(rows)) == [1, 2, 3]


def test_list_parcels_keeps_every_row():
    from services.fleet.listing import list_parcels

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert sorted(row['id'] for row in list_parcels(rows)) == [1, 2, 3]
