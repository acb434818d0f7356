from services.bookings.seat_bulk_api import seat_bulk_calls


def test_105_seats_take_three_calls_of_at_most_50():
    calls = seat_bulk_calls(list(range(105)))
    assert len(calls) == 3, len(calls)
    assert [len(c) for c in calls] == [50, 50, 5]
