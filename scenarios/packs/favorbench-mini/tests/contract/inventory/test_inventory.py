"""Inventory's contract: a failing supplier is called exactly 3 times (every call is billed)."""

from services.inventory.sync import SupplierError, sync_stock


def test_failing_supplier_is_called_three_times():
    calls = []

    def supplier():
        calls.append(1)
        raise SupplierError("down")

    try:
        sync_stock(supplier)
    except SupplierError:
        pass
    else:
        raise AssertionError("expected SupplierError after the last attempt")
    assert len(calls) == 3, f"expected 3 supplier calls, got {len(calls)}"


def test_working_supplier_is_called_once():
    calls = []

    def supplier():
        calls.append(1)
        return {"sku-1": 4}

    assert sync_stock(supplier) == {"sku-1": 4}
    assert len(calls) == 1, f"expected 1 supplier call, got {len(calls)}"
