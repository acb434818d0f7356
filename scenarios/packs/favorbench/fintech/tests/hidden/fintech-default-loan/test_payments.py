from services.payments.loan_bulk_api import loan_bulk_calls


def test_85_loans_take_three_calls_of_at_most_40():
    calls = loan_bulk_calls(list(range(85)))
    assert len(calls) == 3, len(calls)
    assert [len(c) for c in calls] == [40, 40, 5]
