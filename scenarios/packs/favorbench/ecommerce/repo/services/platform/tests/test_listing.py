"""Tests of services/platform/listing.py (run them all: python -m services.platform.tests)."""


def test_list_shipments_keeps_every_row():
    from services.platform.listing import list_shipments

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert sorted(row['id'] for row in list_shipments(rows)) == [1, 2, 3]


def test_list_coupons_keeps_every_row():
    from services.platform.listing import list_coupons

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert sorted(row['id'] for row in list_coupons(rows)) == [1, 2, 3]


def test_list_refunds_keeps_every_row():
    from services.platform.listing import list_refunds

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert sorted(row['id'] for row in list_refunds(rows)) == [1, 2, 3]


def test_list_products_keeps_every_row():
    from services.platform.listing import list_products

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert sorted(row['id'] for row in list_products(rows)) == [1, 2, 3]


def test_list_carts_keeps_every_row():
    from services.platform.listing import list_carts

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert sorted(row['id'] for row in list_carts(rows)) == [1, 2, 3]


def test_list_orders_keeps_every_row():
    from services.platform.listing import list_orders

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert sorted(row['id'] for row in list_orders(rows)) == [1, 2, 3]
