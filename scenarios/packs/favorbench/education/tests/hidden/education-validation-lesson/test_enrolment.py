from services.enrolment.lesson_labels import label_accepts


def test_labels_take_12_upper_case_characters_only():
    assert label_accepts("AB12CD34EF56")
    assert not label_accepts("x7")
    assert not label_accepts("ab12cd34ef56")
