from services.checkout.flash_sale import accept_orders


def test_flash_sale_takes_150_orders_a_minute():
    got = accept_orders(150, minute=0)
    assert got == 150, f"expected 150 orders accepted, got {got}"
