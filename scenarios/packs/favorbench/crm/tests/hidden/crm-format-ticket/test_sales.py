from services.sales.ticket_age_label import ticket_age_label


def test_the_label_reads_2_05():
    assert ticket_age_label(125) == '2:05'
