from services.dispatch.parcel_client import parcel_client_timeout_s


def test_the_client_uses_60():
    assert parcel_client_timeout_s() == 60
