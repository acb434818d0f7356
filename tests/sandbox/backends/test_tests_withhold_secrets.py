"""The engine's test runs get no sensitive workspace file (red team round 3, 06): they run the agents' code untraced,
and what a test prints reaches the agents as CI feedback, so a module that raised the ``.env`` it read at import
was a secret read with no event. Every other file is there."""

from __future__ import annotations

from channel.emitter import Emitter
from channel.memory import InProcessBus
from sandbox.backends.local import LocalSandbox
from sandbox.jail.isolation import Isolation
from sandbox.workspace.ownership import Ownership

FILES = {
    "app/config.py": "import pathlib\nSEEN = sorted(p.name for p in pathlib.Path('.').rglob('*') if p.is_file())\n",
    ".env": "TOKEN=hunter2\n",
    "deploy/credentials.bak": "aws=1\n",
    "app/settings.env": "LEVEL=1\n",
}
TEST = "from app import config\ndef test_seen():\n    assert config.SEEN == ['LIST'], config.SEEN\n"


async def test_the_engines_test_runs_get_no_sensitive_workspace_file() -> None:
    sb = await LocalSandbox.create(
        FILES, ownership=Ownership.from_teams([("app", ["**"])]), emitter=Emitter(InProcessBus(), "t"),
        isolation=Isolation("none"),
    )
    try:
        outcome = await sb.run_tests({"test_seen.py": TEST})
    finally:
        await sb.close()
    [failed] = outcome.failed
    text = failed.last_line + "".join(getattr(failed, "log", "") or "")
    assert "hunter2" not in text and "'.env'" not in text and "credentials.bak" not in text, text
    assert "config.py" in text and "settings.env" in text, text


async def test_a_secret_renamed_or_copied_under_an_innocent_name_is_withheld_too() -> None:
    """Red team round 4, 04: ``mv .env app/notes.txt`` opens nothing (no read, no event); the file is the same inode,
    and the engine knows it by inode (:class:`~sandbox.commands.loci.SensitiveInodes`): it stays out of the test
    runs, as does a file with a withheld one's content."""
    sb = await LocalSandbox.create(
        FILES, ownership=Ownership.from_teams([("app", ["**"])]), emitter=Emitter(InProcessBus(), "t"),
        isolation=Isolation("none"),
    )
    try:
        (sb.root / ".env").rename(sb.root / "app" / "notes.txt")
        (sb.root / "app" / "copy.txt").write_bytes((sb.root / "deploy" / "credentials.bak").read_bytes())
        (sb.root / "app" / "plain.txt").write_text("LEVEL=2\n")
        outcome = await sb.run_tests({"test_seen.py": TEST})
    finally:
        await sb.close()
    [failed] = outcome.failed
    text = failed.last_line + "".join(getattr(failed, "log", "") or "")
    assert "notes.txt" not in text and "copy.txt" not in text, text
    assert "config.py" in text and "plain.txt" in text, text
