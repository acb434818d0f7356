"""Tests of services/compensation/listing.py (run them all: python -m services.compensation.tests)."""


def test_list_shifts_keeps_every_row():
    from services.compensation.listing import list_shifts

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert sorted(row['id'] for row in list_shifts(rows)) == [1, 2, 3]


def test_list_bonuses_keeps_every_row():
    from services.compensation.listing import list_bonuses

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert sorted(row['id'] for row in list_bonuses(rows)) == [1, 2, 3]


def test_list_leaves_keeps_every_row():
    from services.compensation.listing import list_leaves

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert sorted(row['id'] for row in list_leaves(rows)) == [1, 2, 3]


def test_list_expenses_keeps_every_row():
    from services.compensation.listing import list_expenses

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert sorted(row['id'] for row in list_expenses(rows)) == [1, 2, 3]


def test_list_raises_keeps_every_row():
    from services.compensation.listing import list_raises

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert sorted(row['id'] for row in list_raises(rows)) == [1, 2, 3]


def test_list_employees_keeps_every_row():
    from services.compensation.listing import list_employees

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert sorted(row['id'] for row in list_employees(rows)) == [1, 2, 3]
