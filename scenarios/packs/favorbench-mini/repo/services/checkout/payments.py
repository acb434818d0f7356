"""Charging customers through a payment gateway."""


class GatewayError(Exception):
    """The gateway refused or timed out; worth retrying."""


def charge(gateway, cents):
    """Charge `cents` through `gateway` (a callable returning a receipt id)."""
    return gateway(cents)
