from services.bookings.transfer_labels import label_accepts


def test_labels_take_10_upper_case_characters_only():
    assert label_accepts("AB12CD34EF")
    assert not label_accepts("m42")
    assert not label_accepts("ab12cd34ef")
