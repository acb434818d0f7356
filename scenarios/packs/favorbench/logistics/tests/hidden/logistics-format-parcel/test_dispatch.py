from services.dispatch.parcel_weight_label import parcel_weight_label


def test_the_label_reads_1_50_kg():
    assert parcel_weight_label(1500) == '1.50 kg'
