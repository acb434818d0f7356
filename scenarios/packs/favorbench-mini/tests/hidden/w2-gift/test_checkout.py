from services.checkout.gifts import gift_message


def test_gift_message_is_cut_at_the_platform_limit():
    got = gift_message("x" * 100)
    assert len(got) == 40, f"expected 40 characters, got {len(got)}"


def test_short_message_kept():
    assert gift_message("Happy birthday!") == "Happy birthday!"
