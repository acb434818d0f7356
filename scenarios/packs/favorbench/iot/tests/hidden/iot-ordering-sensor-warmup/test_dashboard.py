from services.dashboard.sensor_feed import sensor_feed


def test_the_feed_lists_sensors_highest_priority_first():
    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert sensor_feed(rows) == [2, 3, 1]
