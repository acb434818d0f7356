from services.player.track_payload import track_payload


def test_the_payload_names_the_key_track_id():
    assert track_payload("K7", "open") == {"track_id": "K7", "state": "open"}
