from services.dashboard.alarm_bulk_api import alarm_bulk_calls


def test_105_alarms_take_three_calls_of_at_most_50():
    calls = alarm_bulk_calls(list(range(105)))
    assert len(calls) == 3, len(calls)
    assert [len(c) for c in calls] == [50, 50, 5]
