from services.booking.referral_wait_label import referral_wait_label


def test_the_label_reads_2_05():
    assert referral_wait_label(125) == '2:05'
