from services.timesheets.raise_rate_label import raise_rate_label


def test_the_label_reads_12_5pct():
    assert raise_rate_label(0.125) == '12.5%'
