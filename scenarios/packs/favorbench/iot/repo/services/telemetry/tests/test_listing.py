"""Tests of services/telemetry/listing.py (run them all: python -m services.telemetry.tests)."""


def test_list_devices_keeps_every_row():
    from services.telemetry.listing import list_devices

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert sorted(row['id'] for row in list_devices(rows)) == [1, 2, 3]


def test_list_readings_keeps_every_row():
    from services.telemetry.listing import list_readings

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert sorted(row['id'] for row in list_readings(rows)) == [1, 2, 3]


def test_list_gateways_keeps_every_row():
    from services.telemetry.listing import list_gateways

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert sorted(row['id'] for row in list_gateways(rows)) == [1, 2, 3]


def test_list_alarms_keeps_every_row():
    from services.telemetry.listing import list_alarms

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert sorted(row['id'] for row in list_alarms(rows)) == [1, 2, 3]


def test_list_sites_keeps_every_row():
    from services.telemetry.listing import list_sites

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert sorted(row['id'] for row in list_sites(rows)) == [1, 2, 3]


def test_list_sensors_keeps_every_row():
    from services.telemetry.listing import list_sensors

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert sorted(row['id'] for row in list_sensors(rows)) == [1, 2, 3]
