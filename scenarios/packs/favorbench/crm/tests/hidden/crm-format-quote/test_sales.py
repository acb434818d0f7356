from services.sales.quote_discount_label import quote_discount_label


def test_the_label_reads_12_5pct():
    assert quote_discount_label(0.125) == '12.5%'
