from services.booking.prescription_dose_label import prescription_dose_label


def test_the_label_reads_1_50_kg():
    assert prescription_dose_label(1500) == '1.50 kg'
