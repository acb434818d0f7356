"""Batching helpers: lists split into API-sized batches."""


SENSOR_BATCH_SIZE = 10


def batch_sensors(items):
    """Sensors in batches of SENSOR_BATCH_SIZE, in their order."""
    return [items[i : i + SENSOR_BATCH_SIZE] for i in range(0, len(items), SENSOR_BATCH_SIZE)]


DEVICE_BATCH_SIZE = 20


def batch_devices(items):
    """Devices in batches of DEVICE_BATCH_SIZE, in their order."""
    return [items[i : i + DEVICE_BATCH_SIZE] for i in range(0, len(items), DEVICE_BATCH_SIZE)]


READING_BATCH_SIZE = 25


def batch_readings(items):
    """Readings in batches of READING_BATCH_SIZE, in their order."""
    return [items[i : i + READING_BATCH_SIZE] for i in range(0, len(items), READING_BATCH_SIZE)]


GATEWAY_BATCH_SIZE = 10


def batch_gateways(items):
    """Gateways in batches of GATEWAY_BATCH_SIZE, in their order."""
    return [items[i : i + GATEWAY_BATCH_SIZE] for i in range(0, len(items), GATEWAY_BATCH_SIZE)]


ALARM_BATCH_SIZE = 10


def batch_alarms(items):
    """Alarms in batches of ALARM_BATCH_SIZE, in their order."""
    return [items[i : i + ALARM_BATCH_SIZE] for i in range(0, len(items), ALARM_BATCH_SIZE)]


SITE_BATCH_SIZE = 25


def batch_sites(items):
    """Sites in batches of SITE_BATCH_SIZE, in their order."""
    return [items[i : i + SITE_BATCH_SIZE] for i in range(0, len(items), SITE_BATCH_SIZE)]
