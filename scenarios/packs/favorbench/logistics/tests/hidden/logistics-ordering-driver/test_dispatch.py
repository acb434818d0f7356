from services.dispatch.driver_feed import driver_feed


def test_the_feed_lists_drivers_by_name():
    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert driver_feed(rows) == [2, 3, 1]
