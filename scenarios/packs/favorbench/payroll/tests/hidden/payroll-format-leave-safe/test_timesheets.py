from services.timesheets.leave_length_label import leave_length_label


def test_the_label_reads_2_05():
    assert leave_length_label(125) == '2:05'
