from services.player.album_payload import album_payload


def test_the_payload_names_the_key_album_id():
    assert album_payload("K7", "active") == {"album_id": "K7", "state": "active"}
