"""The engine side runs without the UI: importing any module of it must not import textual, tui/ or
litellm (litellm is imported lazily, only when a model is used). Every module is checked, found by
walking the packages, so a new module is covered the day it is added. The static contracts (which
package may import which) are import-linter's, in pyproject.toml, run by the test command."""

import pkgutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENGINE_SIDE = ("channel", "sandbox", "scenarios", "engine")


def _modules(package: str) -> list[str]:
    found = [package]
    for info in pkgutil.walk_packages([str(ROOT / package)], prefix=f"{package}."):
        if ".packs." not in info.name and not info.name.rsplit(".", 1)[-1].startswith("_testdriver"):
            found.append(info.name)
    return found


def test_every_engine_side_module_is_found() -> None:
    modules = [m for p in ENGINE_SIDE for m in _modules(p)]
    assert {"engine.session.loop", "engine.llm.client", "sandbox.backends.local", "channel.mqtt"} <= set(modules)


def test_engine_side_imports_no_textual() -> None:
    modules = [m for p in ENGINE_SIDE for m in _modules(p)]
    code = (
        "import sys\n"
        f"for m in {modules!r}: __import__(m)\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'tui', 'litellm', 'themes'))\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "", f"engine side imported: {out.stdout.strip()}"


def test_cli_help_imports_no_textual() -> None:
    """`scopewatch --help` stays fast: no textual, no litellm."""
    code = (
        "import sys\nfrom tui.cli import build_parser\nbuild_parser().format_help()\n"
        "print(','.join(sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'litellm'))))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == ""


def test_no_engine_side_module_parses_arguments_or_prints() -> None:
    """Only tui/cli/ reads argparse or prints (issue 9)."""
    import ast

    offenders = []
    for package in ENGINE_SIDE:
        for path in (ROOT / package).rglob("*.py"):
            if "packs" in path.parts or path.name == "_testdriver.py":
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.Import | ast.ImportFrom):
                    names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
                    if "argparse" in names:
                        offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}: imports argparse")
                elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "print":
                    offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}: calls print")
    assert offenders == []


def test_no_module_is_over_450_lines() -> None:
    long = []
    for package in (*ENGINE_SIDE, "tui", "themes"):
        for path in (ROOT / package).rglob("*.py"):
            if "packs" in path.parts:
                continue
            lines = len(path.read_text(encoding="utf-8").splitlines())
            if lines > 450:
                long.append(f"{path.relative_to(ROOT)}: {lines} lines")
    assert long == []
