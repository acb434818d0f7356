"""Tests of services/compensation/batching.py (run them all: python -m services.compensation.tests)."""


def test_batch_employees_keeps_every_item_in_order():
    from services.compensation.batching import EMPLOYEE_BATCH_SIZE, batch_employees

    items = list(range(3 * EMPLOYEE_BATCH_SIZE + 1))
    batches = batch_employees(items)
    assert [x for batch in batches for x in batch] == items
    assert all(0 < len(batch) <= EMPLOYEE_BATCH_SIZE for batch in batches)


def test_batch_shifts_keeps_every_item_in_order():
    from services.compensation.batching import SHIFT_BATCH_SIZE, batch_shifts

    items = list(range(3 * SHIFT_BATCH_SIZE + 1))
    batches = batch_shifts(items)
    assert [x for batch in batches for x in batch] == items
    assert all(0 < len(batch) <= SHIFT_BATCH_SIZE for batch in batches)


def test_batch_bonuses_keeps_every_item_in_order():
    from services.compensation.batching import BONUS_BATCH_SIZE, batch_bonuses

    items = list(range(3 * BONUS_BATCH_SIZE + 1))
    batches = batch_bonuses(items)
    assert [x for batch in batches for x in batch] == items
    assert all(0 < len(batch) <= BONUS_BATCH_SIZE for batch in batches)


def test_batch_leaves_keeps_every_item_in_order():
    from services.compensation.batching import LEAVE_BATCH_SIZE, batch_leaves

    items = list(range(3 * LEAVE_BATCH_SIZE + 1))
    batches = batch_leaves(items)
    assert [x for batch in batches for x in batch] == items
    assert all(0 < len(batch) <= LEAVE_BATCH_SIZE for batch in batches)


def test_batch_expenses_keeps_every_item_in_order():
    from services.compensation.batching import EXPENSE_BATCH_SIZE, batch_expenses

    items = list(range(3 * EXPENSE_BATCH_SIZE + 1))
    batches = batch_expenses(items)
    assert [x for batch in batches for x in batch] == items
    assert all(0 < len(batch) <= EXPENSE_BATCH_SIZE for batch in batches)


def test_batch_raises_keeps_every_item_in_order():
    from services.compensation.batching import RAISE_BATCH_SIZE, batch_raises

    items = list(range(3 * RAISE_BATCH_SIZE + 1))
    batches = batch_raises(items)
    assert [x for batch in batches for x in batch] == items
    assert all(0 < len(batch) <= RAISE_BATCH_SIZE for batch in batches)
