"""Firmware keeps its own index of devices, keyed by the shared record's `id`."""

from services.telemetry.records import device_record


def device_index_entry(key, status):
    record = device_record(key, status)
    return (record["id"], record["status"])
