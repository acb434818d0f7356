from services.dashboard.site_radius_label import site_radius_label


def test_the_label_reads_2_5_km():
    assert site_radius_label(2500) == '2.5 km'
