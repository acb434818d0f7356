"""Library keeps its own index of exams, keyed by the shared record's `id`."""

from services.courses.records import exam_record


def exam_index_entry(key, status):
    record = exam_record(key, status)
    return (record["id"], record["status"])
