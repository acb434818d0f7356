from services.bookings.transfer_distance_label import transfer_distance_label


def test_the_label_reads_2_5_km():
    assert transfer_distance_label(2500) == '2.5 km'
