from services.dispatch.pallet_weight_label import pallet_weight_label


def test_the_label_reads_1_50_kg():
    assert pallet_weight_label(1500) == '1.50 kg'
