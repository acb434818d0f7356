from services.player.playlist_payload import playlist_payload


def test_the_payload_names_the_key_playlist_id():
    assert playlist_payload("K7", "active") == {"playlist_id": "K7", "state": "active"}
