from services.dashboard.gateway_uptime_label import gateway_uptime_label


def test_the_label_reads_12_5pct():
    assert gateway_uptime_label(0.125) == '12.5%'
