from services.player.subscription_client import subscription_client_page_limit


def test_the_client_uses_250():
    assert subscription_client_page_limit() == 250
