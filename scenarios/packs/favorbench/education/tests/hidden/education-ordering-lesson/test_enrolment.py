from services.enrolment.lesson_feed import lesson_feed


def test_the_feed_lists_lessons_newest_first():
    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert lesson_feed(rows) == [1, 3, 2]
