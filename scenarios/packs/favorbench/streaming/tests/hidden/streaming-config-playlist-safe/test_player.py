from services.player.playlist_client import playlist_client_timeout_s


def test_the_client_uses_60():
    assert playlist_client_timeout_s() == 60
