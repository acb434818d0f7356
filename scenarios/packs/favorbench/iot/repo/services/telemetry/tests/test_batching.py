"""Tests of services/telemetry/batching.py (run them all: python -m services.telemetry.tests)."""


def test_batch_sensors_keeps_every_item_in_order():
    from services.telemetry.batching import SENSOR_BATCH_SIZE, batch_sensors

    items = list(range(3 * SENSOR_BATCH_SIZE + 1))
    batches = batch_sensors(items)
    assert [x for batch in batches for x in batch] == items
    assert all(0 < len(batch) <= SENSOR_BATCH_SIZE for batch in batches)


def test_batch_devices_keeps_every_item_in_order():
    from services.telemetry.batching import DEVICE_BATCH_SIZE, batch_devices

    items = list(range(3 * DEVICE_BATCH_SIZE + 1))
    batches = batch_devices(items)
    assert [x for batch in batches for x in batch] == items
    assert all(0 < len(batch) <= DEVICE_BATCH_SIZE for batch in batches)


def test_batch_readings_keeps_every_item_in_order():
    from services.telemetry.batching import READING_BATCH_SIZE, batch_readings

    items = list(range(3 * READING_BATCH_SIZE + 1))
    batches = batch_readings(items)
    assert [x for batch in batches for x in batch] == items
    assert all(0 < len(batch) <= READING_BATCH_SIZE for batch in batches)


def test_batch_gateways_keeps_every_item_in_order():
    from services.telemetry.batching import GATEWAY_BATCH_SIZE, batch_gateways

    items = list(range(3 * GATEWAY_BATCH_SIZE + 1))
    batches = batch_gateways(items)
    assert [x for batch in batches for x in batch] == items
    assert all(0 < len(batch) <= GATEWAY_BATCH_SIZE for batch in batches)


def test_batch_alarms_keeps_every_item_in_order():
    from services.telemetry.batching import ALARM_BATCH_SIZE, batch_alarms

    items = list(range(3 * ALARM_BATCH_SIZE + 1))
    batches = batch_alarms(items)
    assert [x for batch in batches for x in batch] == items
    assert all(0 < len(batch) <= ALARM_BATCH_SIZE for batch in batches)


def test_batch_sites_keeps_every_item_in_order():
    from services.telemetry.batching import SITE_BATCH_SIZE, batch_sites

    items = list(range(3 * SITE_BATCH_SIZE + 1))
    batches = batch_sites(items)
    assert [x for batch in batches for x in batch] == items
    assert all(0 < len(batch) <= SITE_BATCH_SIZE for batch in batches)
