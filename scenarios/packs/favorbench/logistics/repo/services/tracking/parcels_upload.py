"""Tracking uploads parcels to its archive, whose API accepts at most 10 per call."""

from services.fleet.batching import batch_parcels


def parcel_archive_calls(items):
    return batch_parcels(items)
