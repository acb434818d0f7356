"""A pack's own ``[[trajectories]]``: named with ``run --trajectory NAME``, run by default when the pack
cannot give the default condition (the format packs had before conditions: one entry, no warm-ups), and
``--condition`` on such a pack is one line naming what it lacks."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from channel.codec import decode_event
from engine.session.trajectory import TrajectoryError, plan_trajectories, resolve_draw
from scenarios.loader import PACKS_DIR
from scenarios.suite import load_suite
from tui.cli import main

ALL = ("t1-dates", "t1-dates-twin", "s1-cart-ttl")


def _old_format(manifest: str) -> str:
    """favorbench-mini as a user wrote packs before conditions: its warm-ups gone, one ``all`` trajectory."""
    head, *tasks = re.split(r"\n(?=\[\[tasks\]\]\n)", manifest)
    kept = [t for t in tasks if not re.search(r'^variant = "warmup"$', t, re.M)]
    assert len(kept) == len(tasks) - 2
    head = re.sub(r"\[\[trajectories\]\]\nname = .*?\ntasks = \[.*?\]\n", "", head, flags=re.S)
    assert "[[trajectories]]" not in head
    own = "[[trajectories]]\nname = \"all\"\ntasks = [" + ", ".join(f'"{t}"' for t in ALL) + "]\n"
    return "\n".join([head, own, *kept])


@pytest.fixture
def old_pack(tmp_path: Path) -> Path:
    pack = tmp_path / "old-pack"
    shutil.copytree(PACKS_DIR / "favorbench-mini", pack)
    manifest = pack / "scenario.toml"
    manifest.write_text(_old_format(manifest.read_text()))
    return pack


def _episodes(record: Path) -> list[str]:
    events = [decode_event(line) for line in record.read_bytes().splitlines()]
    return [e.task_id for e in events if type(e).__name__ == "EpisodeStarted"]  # type: ignore[attr-defined]


@pytest.mark.parametrize("extra", [[], ["--trajectory", "all"]])
def test_an_old_format_pack_runs_its_own_trajectory(
    old_pack: Path, tmp_path: Path, extra: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "run.jsonl"
    argv = ["run", "--headless", "--scenario", str(old_pack), "--record", str(record), "--json", *extra]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert json.loads(out.strip().splitlines()[-1])
    assert sorted(_episodes(record)) == sorted(ALL)
    started = decode_event(record.read_bytes().splitlines()[0])
    assert started.condition == ""  # type: ignore[attr-defined]  # its own trajectory, not a condition's
    # ... and its config names it, also when it ran by default (packs3 10: config.trajectory was null)
    assert started.config.trajectory == "all"  # type: ignore[attr-defined]


def test_a_condition_the_pack_cannot_give_is_one_line(old_pack: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "--headless", "--scenario", str(old_pack), "--condition", "warm-trap"]) != 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert re.fullmatch(
        r"scopewatch: .*scenario\.toml: condition warm-trap needs 2 trap warmups per trajectory; the pack has 0 "
        r"\(its own trajectories: all; run one with --trajectory NAME\)",
        err[0],
    ), err[0]


def test_an_unknown_trajectory_names_the_ones_there(old_pack: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "--headless", "--scenario", str(old_pack), "--trajectory", "nope"]) != 0
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line.endswith("scenario.toml: no trajectory 'nope' (its trajectories: all)"), line


def test_draws_the_condition_where_the_pack_gives_it_and_names_it_otherwise(old_pack: Path) -> None:
    mini, old = load_suite("favorbench-mini"), load_suite(str(old_pack))
    assert resolve_draw(mini).condition == "warm-safe"
    assert resolve_draw(old).condition is None and resolve_draw(old).trajectory is None  # its first entry
    (plan,) = plan_trajectories(old, condition=None, seed=3, count=1)
    assert sorted(plan.tasks) == sorted(ALL)
    (plan,) = plan_trajectories(mini, condition=None, seed=3, count=1, trajectory="safe-only")
    own = {t.name: t.tasks for t in mini.packs[0].manifest.trajectories}
    assert sorted(plan.tasks) == sorted(own["safe-only"])
    assert plan.tasks[:2] == ("w1-gbp", "w2-gift")  # warm-ups first, as a pinned trajectory
    with pytest.raises(TrajectoryError, match=r"both asked for; give one"):
        resolve_draw(mini, "warm-safe", "safe-only")


def test_a_pack_with_no_trajectories_and_no_warm_ups_runs_all_its_tasks(old_pack: Path) -> None:
    manifest = old_pack / "scenario.toml"
    manifest.write_text(re.sub(r'\[\[trajectories\]\]\nname = "all"\ntasks = \[.*?\]\n', "", manifest.read_text()))
    suite = load_suite(str(old_pack))
    assert suite.packs[0].manifest.trajectories == ()
    (plan,) = plan_trajectories(suite, condition=None, seed=3, count=1)
    assert sorted(plan.tasks) == sorted(t.id for t in suite.packs[0].manifest.tasks) and len(plan.tasks) == 12


def test_scenarios_list_shows_each_packs_trajectories(old_pack: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scenarios", "list"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"trajectories: warm-safe \(12 tasks\), safe-only \(9 tasks\), all-trap \(5 tasks\)", out)
    assert main(["scenarios", "list", str(old_pack)]) == 0
    out = capsys.readouterr().out
    assert "trajectories: all (3 tasks)" in out
    assert main(["scenarios", "list", "--json", str(old_pack)]) == 0
    (entry,) = json.loads(capsys.readouterr().out)["packs"]
    assert entry["trajectories"] == [{"name": "all", "pack": "favorbench-mini", "tasks": list(ALL)}]
