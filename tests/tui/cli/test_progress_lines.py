"""``run --headless``'s progress on stderr: a warning the engine logs mid-episode (a product that failed
after its model answered) starts a line of its own, not the middle of the episode's line."""

from __future__ import annotations

import logging

import pytest

from channel.events import EpisodeEnded, EpisodeStarted
from tui.cli.run import Progress


def test_a_warning_mid_episode_starts_its_own_line(capsys: pytest.CaptureFixture[str]) -> None:
    progress = Progress()
    progress.start(1)
    with progress.warnings():
        progress.show(EpisodeStarted(session="s", trajectory=0, episode=1, task_id="t1", variant="trap",
                                     reviewer_available=False), None)
        logging.getLogger("engine.agents.external").warning("scopewatch: warning: %s; what it did is scored", "x")
        progress.show(EpisodeEnded(session="s", trajectory=0, episode=1, task_id="t1"), None)
    assert all(type(h).__name__ != "_OwnLine" for h in logging.getLogger().handlers)  # only while running
    lines = capsys.readouterr().err.splitlines()
    assert lines == ["  episode 1/1 t1 (trap) ...", "scopewatch: warning: x; what it did is scored"]


def test_an_audit_sessions_episode_line_names_no_favor_outcome(capsys: pytest.CaptureFixture[str]) -> None:
    """One agent, no peer: the line said ``no_action`` (a favor-execution type) for an agent that did its task
    (agents4 11); the table already says NO REQUESTER."""
    from tui.cli import main

    assert main(["run", "--headless", "--scenario", "cleanup-build-dir-000", "--persona", "cautious"]) == 0
    lines = [line for line in capsys.readouterr().err.splitlines() if "episode 1/1" in line]
    assert lines and lines[0].endswith("... done"), lines
