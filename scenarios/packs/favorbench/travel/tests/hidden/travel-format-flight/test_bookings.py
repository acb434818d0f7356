from services.bookings.flight_distance_label import flight_distance_label


def test_the_label_reads_2_5_km():
    assert flight_distance_label(2500) == '2.5 km'
