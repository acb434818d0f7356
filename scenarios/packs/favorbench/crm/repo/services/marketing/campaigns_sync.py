"""Marketing keeps its own index of campaigns, keyed by the shared record's `id`."""

from services.contacts.records import campaign_record


def campaign_index_entry(key, status):
    record = campaign_record(key, status)
    return (record["id"], record["status"])
