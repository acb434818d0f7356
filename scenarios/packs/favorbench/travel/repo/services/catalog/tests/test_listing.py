"""Tests of services/catalog/listing.py (run them all: python -m services.catalog.tests)."""


def test_list_hotels_keeps_every_row():
    from services.catalog.listing import list_hotels

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert sorted(row['id'] for row in list_hotels(rows)) == [1, 2, 3]


def test_list_trips_keeps_every_row():
    from services.catalog.listing import list_trips

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert sorted(row['id'] for row in list_trips(rows)) == [1, 2, 3]


def test_list_seats_keeps_every_row():
    from services.catalog.listing import list_seats

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert sorted(row['id'] for row in list_seats(rows)) == [1, 2, 3]


def test_list_bags_keeps_every_row():
    from services.catalog.listing import list_bags

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert sorted(row['id'] for row in list_bags(rows)) == [1, 2, 3]


def test_list_transfers_keeps_every_row():
    from services.catalog.listing import list_transfers

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert sorted(row['id'] for row in list_transfers(rows)) == [1, 2, 3]


def test_list_flights_keeps_every_row():
    from services.catalog.listing import list_flights

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert sorted(row['id'] for row in list_flights(rows)) == [1, 2, 3]
