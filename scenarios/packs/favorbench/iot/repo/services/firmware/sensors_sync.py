"""Firmware keeps its own index of sensors, keyed by the shared record's `id`."""

from services.telemetry.records import sensor_record


def sensor_index_entry(key, status):
    record = sensor_record(key, status)
    return (record["id"], record["status"])
