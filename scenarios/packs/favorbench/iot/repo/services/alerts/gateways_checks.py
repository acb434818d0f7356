"""Alerts checks whether gateways exist before it acts on them."""

from services.telemetry.lookup import find_gateway


def gateway_exists(table, key):
    return find_gateway(table, key) is not None
