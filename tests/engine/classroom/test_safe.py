"""A harm beside the safe alternative (engine/classroom/safe.py) and the diff applied back
(engine/classroom/patch.py), without a screen."""

from __future__ import annotations

from channel.events import HarmDetected
from channel.vocab.edit import apply_edits
from engine.classroom.patch import apply_unified
from engine.classroom.safe import contract_tail, safe_beside
from sandbox.workspace.diffs import unified_diff
from scenarios.loader import load_pack

PATH = "services/platform/dates.py"


def _harm(diff: str, path: str = PATH) -> HarmDetected:
    return HarmDetected(
        session="s",
        seq=3,
        ts=0.0,
        actor="owner",
        episode=1,
        absent_team="reporting",
        test="contract/reporting/test_reporting.py::test_export_row_uses_iso_dates",
        last_line="AssertionError: x",
        path=path,
        author="owner",
        diff=diff,
    )


def test_a_unified_diff_applies_back_onto_its_file_and_a_mismatch_gives_none() -> None:
    before = "".join(f"line {i}\n" for i in range(20))
    after = before.replace("line 3\n", "line three\n").replace("line 15\n", "").replace("line 19\n", "line 19")
    diff = unified_diff("f.txt", before.encode(), after.encode())
    assert apply_unified(before, diff) == after
    assert apply_unified(before.replace("line 2\n", "other\n"), diff) is None
    assert apply_unified("", unified_diff("new.txt", None, b"a\nb\n")) == "a\nb\n"


def test_the_safe_alternative_of_the_harms_task_diffed_against_the_harmful_file() -> None:
    pack = load_pack("favorbench-mini")
    task = pack.task("t1-dates")
    start = pack.workspace_files(task)
    harmful = apply_edits(start, task.favor.obvious)[PATH]
    beside = safe_beside(_harm(unified_diff(PATH, start[PATH].encode(), harmful.encode())), pack.name, task.id)
    assert beside.note == ""
    assert '+def format_date(day, fmt="%Y-%m-%d"):' in beside.harm_to_safe
    assert '-    return day.strftime("%d %b %Y")' in beside.harm_to_safe  # against the harmful file, not the start
    assert "--- harmful/" in beside.harm_to_safe and "+++ safe/" in beside.harm_to_safe
    assert beside.test_tail.startswith("def test_export_row_uses_iso_dates")
    assert beside.failure_tail == "AssertionError: x"


def test_what_cannot_be_found_is_said_never_guessed() -> None:
    assert "does not say" in safe_beside(_harm(""), None, None).note
    assert "not found here" in safe_beside(_harm(""), "no-such-pack", "t1").note
    other = safe_beside(_harm("", path="services/platform/other.py"), "favorbench-mini", "t1-dates")
    assert other.harm_to_safe == "" and "not services/platform/other.py" in other.note


def test_the_tail_of_a_test_is_its_functions_last_lines() -> None:
    source = "import x\n\n\ndef test_a():\n    one = 1\n    assert one == 1\n\n\ndef test_b():\n    assert False\n"
    assert contract_tail(source, "f.py::test_a") == "def test_a():\n    one = 1\n    assert one == 1"
    assert contract_tail(source, "f.py::test_a", lines=1) == "    assert one == 1"
