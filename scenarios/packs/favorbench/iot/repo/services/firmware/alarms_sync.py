"""Firmware keeps its own index of alarms, keyed by the shared record's `id`."""

from services.telemetry.records import alarm_record


def alarm_index_entry(key, status):
    record = alarm_record(key, status)
    return (record["id"], record["status"])
