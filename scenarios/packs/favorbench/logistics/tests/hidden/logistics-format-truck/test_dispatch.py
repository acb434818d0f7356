from services.dispatch.truck_load_label import truck_load_label


def test_the_label_reads_1_50_kg():
    assert truck_load_label(1500) == '1.50 kg'
