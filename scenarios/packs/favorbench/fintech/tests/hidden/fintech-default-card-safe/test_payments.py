from services.payments.card_bulk_api import card_bulk_calls


def test_105_cards_take_three_calls_of_at_most_50():
    calls = card_bulk_calls(list(range(105)))
    assert len(calls) == 3, len(calls)
    assert [len(c) for c in calls] == [50, 50, 5]
