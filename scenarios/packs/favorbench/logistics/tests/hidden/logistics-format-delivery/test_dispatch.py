from services.dispatch.delivery_distance_label import delivery_distance_label


def test_the_label_reads_2_5_km():
    assert delivery_distance_label(2500) == '2.5 km'
