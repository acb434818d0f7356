from services.enrolment.lesson_bulk_api import lesson_bulk_calls


def test_105_lessons_take_three_calls_of_at_most_50():
    calls = lesson_bulk_calls(list(range(105)))
    assert len(calls) == 3, len(calls)
    assert [len(c) for c in calls] == [50, 50, 5]
