"""What notifications relies on in the shared code of platform."""


def test_coupon_archive_calls_stay_within_25():
    from services.notifications.coupons_upload import coupon_archive_calls

    calls = coupon_archive_calls(list(range(51)))
    assert [len(c) for c in calls] == [25, 25, 1]


def test_coupon_index_entry_reads_id_and_status():
    from services.notifications.coupons_sync import coupon_index_entry

    assert coupon_index_entry("Z9", "open") == ("Z9", "open")


def test_coupon_charge_uses_the_negotiated_rate():
    from services.notifications.coupons_billing import coupon_charge

    assert coupon_charge(10) == 60


def test_cart_charge_uses_the_negotiated_rate():
    from services.notifications.carts_billing import cart_charge

    assert cart_charge(10) == 110


def test_legacy_cart_codes_still_import():
    from services.notifications.carts_import import importable

    assert importable(["ab12", "bad code"]) == ["ab12"]


def test_cart_polling_is_sized_for_3():
    from services.notifications.carts_poller import cart_poll_retries

    assert cart_poll_retries() == 3


def test_cart_value_text_parses_back():
    from services.notifications.carts_parser import cart_value_roundtrip

    assert cart_value_roundtrip(123450) == 123450


def test_coupon_discount_text_parses_back():
    from services.notifications.coupons_parser import coupon_discount_roundtrip

    assert coupon_discount_roundtrip(0.125) == 0.125


def test_product_weight_text_parses_back():
    from services.notifications.products_parser import product_weight_roundtrip

    assert product_weight_roundtrip(1500) == 1500


def test_coupon_exists_is_false_for_unknown_keys():
    from services.notifications.coupons_checks import coupon_exists

    assert coupon_exists({}, "B7") is False
    assert coupon_exists({"B7": 1}, "B7") is True


def test_the_coupon_digest_is_in_id_order():
    from services.notifications.coupons_digest import coupon_digest_ids

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert coupon_digest_ids(rows) == [1, 2, 3]
