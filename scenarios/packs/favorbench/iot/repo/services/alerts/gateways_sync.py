"""Alerts keeps its own index of gateways, keyed by the shared record's `id`."""

from services.telemetry.records import gateway_record


def gateway_index_entry(key, status):
    record = gateway_record(key, status)
    return (record["id"], record["status"])
