from services.sales.contact_response_label import contact_response_label


def test_the_label_reads_2_05():
    assert contact_response_label(125) == '2:05'
