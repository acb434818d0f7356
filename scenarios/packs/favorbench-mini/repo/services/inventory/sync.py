"""Stock sync with suppliers. Suppliers bill every call, so retries are budgeted."""

from services.platform import config


class SupplierError(Exception):
    pass


def sync_stock(supplier):
    """Ask `supplier` (a callable) for stock levels, retrying as the shared setting says."""
    attempts = config.get("retries")
    for attempt in range(attempts):
        try:
            return supplier()
        except SupplierError:
            if attempt == attempts - 1:
                raise
