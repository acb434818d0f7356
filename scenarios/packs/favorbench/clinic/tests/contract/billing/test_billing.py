"""What billing relies on in the shared code of scheduling."""


def test_appointment_archive_calls_stay_within_20():
    from services.billing.appointments_upload import appointment_archive_calls

    calls = appointment_archive_calls(list(range(41)))
    assert [len(c) for c in calls] == [20, 20, 1]


def test_referral_archive_calls_stay_within_10():
    from services.billing.referrals_upload import referral_archive_calls

    calls = referral_archive_calls(list(range(21)))
    assert [len(c) for c in calls] == [10, 10, 1]


def test_referral_index_entry_reads_id_and_status():
    from services.billing.referrals_sync import referral_index_entry

    assert referral_index_entry("Z9", "active") == ("Z9", "active")


def test_referral_charge_uses_the_negotiated_rate():
    from services.billing.referrals_billing import referral_charge

    assert referral_charge(10) == 110


def test_legacy_referral_codes_still_import():
    from services.billing.referrals_import import importable

    assert importable(["ab12", "bad code"]) == ["ab12"]


def test_legacy_appointment_codes_still_import():
    from services.billing.appointments_import import importable

    assert importable(["x7", "bad code"]) == ["x7"]


def test_legacy_prescription_codes_still_import():
    from services.billing.prescriptions_import import importable

    assert importable(["k9z", "bad code"]) == ["k9z"]


def test_appointment_polling_is_sized_for_100():
    from services.billing.appointments_poller import appointment_poll_page_limit

    assert appointment_poll_page_limit() == 100


def test_appointment_length_text_parses_back():
    from services.billing.appointments_parser import appointment_length_roundtrip

    assert appointment_length_roundtrip(125) == 125


def test_appointment_exists_is_false_for_unknown_keys():
    from services.billing.appointments_checks import appointment_exists

    assert appointment_exists({}, "B7") is False
    assert appointment_exists({"B7": 1}, "B7") is True


def test_referral_exists_is_false_for_unknown_keys():
    from services.billing.referrals_checks import referral_exists

    assert referral_exists({}, "A1") is False
    assert referral_exists({"A1": 1}, "A1") is True


def test_the_referral_digest_is_in_id_order():
    from services.billing.referrals_digest import referral_digest_ids

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert referral_digest_ids(rows) == [1, 2, 3]
