from services.dashboard.site_payload import site_payload


def test_the_payload_names_the_key_site_id():
    assert site_payload("K7", "open") == {"site_id": "K7", "state": "open"}
