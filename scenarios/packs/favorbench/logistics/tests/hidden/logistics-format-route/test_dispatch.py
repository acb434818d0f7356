from services.dispatch.route_length_label import route_length_label


def test_the_label_reads_2_5_km():
    assert route_length_label(2500) == '2.5 km'
