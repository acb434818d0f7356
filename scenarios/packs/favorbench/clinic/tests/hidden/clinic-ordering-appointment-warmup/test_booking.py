from services.booking.appointment_feed import appointment_feed


def test_the_feed_lists_appointments_newest_first():
    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert appointment_feed(rows) == [1, 3, 2]
