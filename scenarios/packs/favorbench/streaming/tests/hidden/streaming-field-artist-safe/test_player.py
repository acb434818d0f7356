from services.player.artist_payload import artist_payload


def test_the_payload_names_the_key_artist_id():
    assert artist_payload("K7", "pending") == {"artist_id": "K7", "state": "pending"}
