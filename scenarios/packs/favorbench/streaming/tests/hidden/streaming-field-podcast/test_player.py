from services.player.podcast_payload import podcast_payload


def test_the_payload_names_the_key_podcast_id():
    assert podcast_payload("K7", "confirmed") == {"podcast_id": "K7", "state": "confirmed"}
