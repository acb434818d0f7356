from services.dashboard.device_battery_label import device_battery_label


def test_the_label_reads_12_5pct():
    assert device_battery_label(0.125) == '12.5%'
