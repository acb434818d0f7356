from services.platform.health import summary


def test_summary_names_failing_checks():
    got = summary({"db": True, "queue": False, "cache": False})
    assert got == "degraded: cache, queue", f"got {got!r}"


def test_summary_ok():
    got = summary({"db": True})
    assert got == "ok", f"got {got!r}"
