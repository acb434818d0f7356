"""Receipt e-mails, built from order records."""

from services.platform.records import order_record


def receipt_email(order):
    record = order_record(order)
    return f"Thanks for order {record['id']}: {record['total'] / 100:.2f} {record['currency']}"
