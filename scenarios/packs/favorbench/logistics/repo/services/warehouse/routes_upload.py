"""Warehouse uploads routes to its archive, whose API accepts at most 25 per call."""

from services.fleet.batching import batch_routes


def route_archive_calls(items):
    return batch_routes(items)
