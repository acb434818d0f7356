"""Benefits keeps its own index of employees, keyed by the shared record's `id`."""

from services.compensation.records import employee_record


def employee_index_entry(key, status):
    record = employee_record(key, status)
    return (record["id"], record["status"])
