from services.timesheets.raise_bulk_api import raise_bulk_calls


def test_105_raises_take_three_calls_of_at_most_50():
    calls = raise_bulk_calls(list(range(105)))
    assert len(calls) == 3, len(calls)
    assert [len(c) for c in calls] == [50, 50, 5]
