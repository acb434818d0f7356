from services.timesheets.expense_bulk_api import expense_bulk_calls


def test_125_expenses_take_three_calls_of_at_most_60():
    calls = expense_bulk_calls(list(range(125)))
    assert len(calls) == 3, len(calls)
    assert [len(c) for c in calls] == [60, 60, 5]
