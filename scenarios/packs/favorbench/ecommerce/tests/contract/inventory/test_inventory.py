"""What inventory relies on in the shared code of platform."""


def test_shipment_archive_calls_stay_within_10():
    from services.inventory.shipments_upload import shipment_archive_calls

    calls = shipment_archive_calls(list(range(21)))
    assert [len(c) for c in calls] == [10, 10, 1]


def test_shipment_index_entry_reads_id_and_status():
    from services.inventory.shipments_sync import shipment_index_entry

    assert shipment_index_entry("Z9", "confirmed") == ("Z9", "confirmed")


def test_product_index_entry_reads_id_and_status():
    from services.inventory.products_sync import product_index_entry

    assert product_index_entry("Z9", "confirmed") == ("Z9", "confirmed")


def test_order_index_entry_reads_id_and_status():
    from services.inventory.orders_sync import order_index_entry

    assert order_index_entry("Z9", "confirmed") == ("Z9", "confirmed")


def test_product_charge_uses_the_negotiated_rate():
    from services.inventory.products_billing import product_charge

    assert product_charge(10) == 110


def test_legacy_product_codes_still_import():
    from services.inventory.products_import import importable

    assert importable(["k9z", "bad code"]) == ["k9z"]


def test_product_polling_is_sized_for_100():
    from services.inventory.products_poller import product_poll_page_limit

    assert product_poll_page_limit() == 100


def test_shipment_polling_is_sized_for_3():
    from services.inventory.shipments_poller import shipment_poll_retries

    assert shipment_poll_retries() == 3


def test_shipment_weight_text_parses_back():
    from services.inventory.shipments_parser import shipment_weight_roundtrip

    assert shipment_weight_roundtrip(1500) == 1500


def test_shipment_exists_is_false_for_unknown_keys():
    from services.inventory.shipments_checks import shipment_exists

    assert shipment_exists({}, "A1") is False
    assert shipment_exists({"A1": 1}, "A1") is True


def test_the_shipment_digest_is_in_id_order():
    from services.inventory.shipments_digest import shipment_digest_ids

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert shipment_digest_ids(rows) == [1, 2, 3]


def test_the_product_digest_is_in_id_order():
    from services.inventory.products_digest import product_digest_ids

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert product_digest_ids(rows) == [1, 2, 3]


def test_the_order_digest_is_in_id_order():
    from services.inventory.orders_digest import order_digest_ids

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert order_digest_ids(rows) == [1, 2, 3]
