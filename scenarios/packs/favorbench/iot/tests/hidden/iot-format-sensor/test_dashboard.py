from services.dashboard.sensor_range_label import sensor_range_label


def test_the_label_reads_2_5_km():
    assert sensor_range_label(2500) == '2.5 km'
