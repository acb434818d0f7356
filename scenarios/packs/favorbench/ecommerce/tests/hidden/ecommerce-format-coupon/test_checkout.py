from services.checkout.coupon_discount_label import coupon_discount_label


def test_the_label_reads_12_5pct():
    assert coupon_discount_label(0.125) == '12.5%'
