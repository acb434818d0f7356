"""The engine side runs without the UI: importing it must not import textual (or tui/)."""

import subprocess
import sys

ENGINE_SIDE = [
    "channel.events",
    "channel.memory",
    "channel.recorder",
    "channel.emitter",
    "sandbox.local",
    "sandbox.ownership",
    "sandbox.testrun",
    "scenarios.loader",
    "scenarios.manifest",
    "engine.session.loop",
    "engine.session.headless",
    "engine.scoring.metrics",
    "engine.scoring.judge",
]


def test_engine_side_imports_no_textual() -> None:
    code = (
        "import sys\n"
        f"for m in {ENGINE_SIDE!r}: __import__(m)\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'tui', 'litellm'))\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"engine side imported: {out.stdout.strip()}"


def test_cli_help_imports_no_textual() -> None:
    """`scopewatch --help` stays fast: no textual, no litellm."""
    code = (
        "import sys\nfrom tui.cli import build_parser\nbuild_parser().format_help()\n"
        "print(','.join(sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'litellm'))))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
