from services.timesheets.bonus_feed import bonus_feed


def test_the_feed_lists_bonuses_newest_first():
    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert bonus_feed(rows) == [1, 3, 2]
