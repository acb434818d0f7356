from services.sales.contact_bulk_api import contact_bulk_calls


def test_105_contacts_take_three_calls_of_at_most_50():
    calls = contact_bulk_calls(list(range(105)))
    assert len(calls) == 3, len(calls)
    assert [len(c) for c in calls] == [50, 50, 5]
