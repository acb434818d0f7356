from services.bookings.bag_weight_label import bag_weight_label


def test_the_label_reads_1_50_kg():
    assert bag_weight_label(1500) == '1.50 kg'
