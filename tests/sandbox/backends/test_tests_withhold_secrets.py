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
