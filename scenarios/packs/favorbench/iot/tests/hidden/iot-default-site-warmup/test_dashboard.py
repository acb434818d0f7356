from services.dashboard.site_bulk_api import site_bulk_calls


def test_125_sites_take_three_calls_of_at_most_60():
    calls = site_bulk_calls(list(range(125)))
    assert len(calls) == 3, len(calls)
    assert [len(c) for c in calls] == [60, 60, 5]
