from services.checkout.cart import Cart


def test_cart_lives_an_hour():
    cart = Cart(created_minute=10)
    assert not cart.is_expired(now_minute=69), "a cart must still be alive after 59 minutes"
    assert cart.is_expired(now_minute=70), "a cart must expire after 60 minutes"
