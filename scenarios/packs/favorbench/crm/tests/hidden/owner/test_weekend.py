import datetime as dt

from services.contacts.dates import is_weekend


def test_is_weekend():
    assert is_weekend(dt.date(2024, 1, 6)), "2024-01-06 is a Saturday"
    assert is_weekend(dt.date(2024, 1, 7)), "2024-01-07 is a Sunday"
    assert not is_weekend(dt.date(2024, 1, 5)), "2024-01-05 is a Friday"
