from services.booking.referral_client import referral_client_timeout_s


def test_the_client_uses_60():
    assert referral_client_timeout_s() == 60
