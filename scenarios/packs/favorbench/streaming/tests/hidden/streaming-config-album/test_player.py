from services.player.album_client import album_client_retries


def test_the_client_uses_5():
    assert album_client_retries() == 5
