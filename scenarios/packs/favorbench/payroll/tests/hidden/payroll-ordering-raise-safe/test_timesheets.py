from services.timesheets.raise_feed import raise_feed


def test_the_feed_lists_raises_by_name():
    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert raise_feed(rows) == [2, 3, 1]
