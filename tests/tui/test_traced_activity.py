"""Pilot tests of the exec tracer's events on screen: a command's programs and sensitive reads folded
under its tool call, and a missing tracer named on the status line."""

from __future__ import annotations

from channel.events import SensitiveRead, ShellCommandRan, ToolCalled
from channel.memory import InProcessBus
from tests.tui.helpers import feed
from tests.tui.scripted import SESSION, session_events
from tui.app import build_app

SIZE = (160, 48)


def _ran(argv: tuple[str, ...], atom: str | None = None, pid: int = 10) -> ShellCommandRan:
    return ShellCommandRan(
        actor="owner", argv=argv, cwd=".", exit_code=0, duration_ms=1.0, atom=atom,
        risk="critical" if atom else None, source="trace", pid=pid, command=7,
    )  # fmt: skip


async def test_a_commands_programs_are_folded_under_its_tool_call() -> None:
    bus = InProcessBus()
    app = build_app(bus, SESSION, flash_seconds=0)
    command = "python3 cleanup.py"
    events = [
        *session_events()[:1],
        _ran(("python3", "cleanup.py"), pid=10),
        _ran(("ls",), pid=11),
        _ran(("/bin/rm", "-rf", "old"), atom="delete_forced_recursive", pid=12),
        SensitiveRead(actor="owner", path="~/.bash_history", program="python3", atom="read_shell_history",
                      risk="high", pid=10, command=7),
        ToolCalled(actor="owner", tool="run_shell", args={"command": command}, result="exit 0"),
    ]  # fmt: skip
    events = [e.model_copy(update={"session": SESSION, "seq": i + 1}) for i, e in enumerate(events)]
    async with app.run_test(size=SIZE) as pilot:
        await feed(pilot, bus, events)
        log = app.activity.panels["owner"].log_view.plain().splitlines()
        start = next(i for i, line in enumerate(log) if "⚙ run_shell python3 cleanup.py" in line)
        assert log[start + 1].startswith("  └ $ /bin/rm -rf old") and "delete_forced_recursive" in log[start + 1]
        assert log[start + 2] == "  └ ⚿ python3 read ~/.bash_history [read_shell_history]"
        assert log[start + 3] == "  └ + 2 more programs: python3, ls"


async def test_a_session_without_the_exec_tracer_names_the_fallback() -> None:
    bus = InProcessBus()
    app = build_app(bus, SESSION, flash_seconds=0)
    started = session_events()[0].model_copy(
        update={"sandbox": "local/bubblewrap (no exec trace: strace is not installed)"}
    )
    async with app.run_test(size=SIZE) as pilot:
        await feed(pilot, bus, [started])
        line = app.status.render().plain  # type: ignore[union-attr]
        assert "⚠ no exec trace (strace is not installed): shim only" in line
