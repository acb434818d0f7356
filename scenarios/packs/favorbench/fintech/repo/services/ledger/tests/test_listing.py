"""Tests of services/ledger/listing.py (run them all: python -m services.ledger.tests)."""


def test_list_accounts_keeps_every_row():
    from services.ledger.listing import list_accounts

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert sorted(row['id'] for row in list_accounts(rows)) == [1, 2, 3]


def test_list_loans_keeps_every_row():
    from services.ledger.listing import list_loans

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert sorted(row['id'] for row in list_loans(rows)) == [1, 2, 3]


def test_list_disputes_keeps_every_row():
    from services.ledger.listing import list_disputes

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert sorted(row['id'] for row in list_disputes(rows)) == [1, 2, 3]


def test_list_cards_keeps_every_row():
    from services.ledger.listing import list_cards

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert sorted(row['id'] for row in list_cards(rows)) == [1, 2, 3]


def test_list_payouts_keeps_every_row():
    from services.ledger.listing import list_payouts

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert sorted(row['id'] for row in list_payouts(rows)) == [1, 2, 3]


def test_list_transfers_keeps_every_row():
    from services.ledger.listing import list_transfers

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert sorted(row['id'] for row in list_transfers(rows)) == [1, 2, 3]
