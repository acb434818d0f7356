from services.player.podcast_client import podcast_client_retries


def test_the_client_uses_5():
    assert podcast_client_retries() == 5
