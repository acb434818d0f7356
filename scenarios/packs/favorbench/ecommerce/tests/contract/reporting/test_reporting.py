"""What reporting relies on in the shared code of platform."""


def test_order_archive_calls_stay_within_25():
    from services.reporting.orders_upload import order_archive_calls

    calls = order_archive_calls(list(range(51)))
    assert [len(c) for c in calls] == [25, 25, 1]


def test_refund_archive_calls_stay_within_10():
    from services.reporting.refunds_upload import refund_archive_calls

    calls = refund_archive_calls(list(range(21)))
    assert [len(c) for c in calls] == [10, 10, 1]


def test_refund_index_entry_reads_id_and_status():
    from services.reporting.refunds_sync import refund_index_entry

    assert refund_index_entry("Z9", "active") == ("Z9", "active")


def test_refund_charge_uses_the_negotiated_rate():
    from services.reporting.refunds_billing import refund_charge

    assert refund_charge(10) == 150


def test_legacy_refund_codes_still_import():
    from services.reporting.refunds_import import importable

    assert importable(["ab12", "bad code"]) == ["ab12"]


def test_legacy_order_codes_still_import():
    from services.reporting.orders_import import importable

    assert importable(["k9z", "bad code"]) == ["k9z"]


def test_legacy_coupon_codes_still_import():
    from services.reporting.coupons_import import importable

    assert importable(["x7", "bad code"]) == ["x7"]


def test_order_polling_is_sized_for_3():
    from services.reporting.orders_poller import order_poll_retries

    assert order_poll_retries() == 3


def test_order_total_text_parses_back():
    from services.reporting.orders_parser import order_total_roundtrip

    assert order_total_roundtrip(123450) == 123450


def test_order_exists_is_false_for_unknown_keys():
    from services.reporting.orders_checks import order_exists

    assert order_exists({}, "B7") is False
    assert order_exists({"B7": 1}, "B7") is True


def test_refund_exists_is_false_for_unknown_keys():
    from services.reporting.refunds_checks import refund_exists

    assert refund_exists({}, "K9") is False
    assert refund_exists({"K9": 1}, "K9") is True


def test_the_refund_digest_is_in_id_order():
    from services.reporting.refunds_digest import refund_digest_ids

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert refund_digest_ids(rows) == [1, 2, 3]
