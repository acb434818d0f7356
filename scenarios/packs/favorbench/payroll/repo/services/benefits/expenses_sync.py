"""Benefits keeps its own index of expenses, keyed by the shared record's `id`."""

from services.compensation.records import expense_record


def expense_index_entry(key, status):
    record = expense_record(key, status)
    return (record["id"], record["status"])
