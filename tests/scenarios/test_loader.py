"""The scenario loader: the built-in pack's shape, edits, and one-line errors naming file and field."""

from __future__ import annotations

import json
import shutil
import tomllib
from pathlib import Path

import pytest

from channel.vocab.edit import Edit, EditError, apply_edits
from scenarios.generate.tomlwrite import dumps
from scenarios.loader import PACKS_DIR, ScenarioError, load_pack
from scenarios.suite import list_packs
from tui.cli import main

BUILTIN = PACKS_DIR / "favorbench-mini"


def test_builtin_pack_has_the_papers_shape() -> None:
    pack = load_pack("favorbench-mini")
    manifest = pack.manifest
    variants = [t.variant for t in manifest.tasks]
    assert variants.count("warmup") == 2
    assert variants.count("trap") >= 4
    assert variants.count("safe") >= 2
    traps = {t.id for t in manifest.tasks if t.variant == "trap"}
    assert {t.twin_of for t in manifest.tasks if t.variant == "twin"} == traps, "every trap has its twin"
    assert len(manifest.absent_teams) == 3
    services = {path.split("/")[1] for path in pack.repo_files() if path.startswith("services/")}
    assert len(services - {"__init__.py"}) == 5
    assert not any(path.startswith("tests/") for path in pack.repo_files()), "hidden tests stay out of the workspace"
    assert manifest.trajectories[0].tasks[:2] == ("w1-gbp", "w2-gift")
    assert ("favorbench-mini", manifest.description) in list_packs()


def test_twins_inherit_from_their_trap_without_harms() -> None:
    manifest = load_pack("favorbench-mini").manifest
    trap, twin = manifest.task("t1-dates"), manifest.task("t1-dates-twin")
    assert twin.requester == trap.requester and twin.owner == trap.owner
    assert twin.favor.obvious == trap.favor.obvious and twin.favor.harms == ()
    assert twin.setup


def test_workspace_files_apply_the_setup() -> None:
    pack = load_pack(BUILTIN)
    base = pack.repo_files()
    twin = pack.workspace_files("t1-dates-twin")
    assert "from services.platform.dates import" in base["services/reporting/export.py"]
    assert "from services.platform.dates import" not in twin["services/reporting/export.py"]
    assert pack.workspace_files("t1-dates") == base


def test_test_sources_are_named_relative_to_tests() -> None:
    pack = load_pack(BUILTIN / "scenario.toml")
    sources = pack.test_sources(pack.manifest.teams[2].contract_tests)
    assert list(sources) == ["contract/reporting/test_reporting.py"]
    assert "def test_" in sources["contract/reporting/test_reporting.py"]
    assert dict(pack.ownership)["checkout"] == ("services/checkout/**",)


def test_apply_edits() -> None:
    files = {"a.py": "x = 1\ny = 1\n"}
    assert apply_edits(files, [Edit(path="a.py", old="x = 1", new="x = 2")]) == {"a.py": "x = 2\ny = 1\n"}
    assert apply_edits(files, [Edit(path="b.py", new="z = 3\n")])["b.py"] == "z = 3\n"
    assert files == {"a.py": "x = 1\ny = 1\n"}, "the input is not changed"
    with pytest.raises(EditError, match=r"edit 0 \(a.py\): old text found 2 times"):
        apply_edits(files, [Edit(path="a.py", old="= 1", new="= 2")])
    with pytest.raises(EditError, match=r"edit 1 \(a.py\): old text found 0 times"):
        apply_edits(files, [Edit(path="a.py", old="x = 1", new="x = 2"), Edit(path="a.py", old="x = 1", new="")])
    with pytest.raises(EditError, match="already exists"):
        apply_edits(files, [Edit(path="a.py", new="")])
    with pytest.raises(EditError, match="no such file"):
        apply_edits(files, [Edit(path="c.py", old="x", new="y")])


@pytest.fixture
def pack_copy(tmp_path: Path) -> Path:
    # A copy to break: a pack's files are its own (a link leading out of it is refused).
    target = tmp_path / "pack"
    target.mkdir()
    shutil.copyfile(BUILTIN / "scenario.toml", target / "scenario.toml")
    for folder in ("repo", "tests"):
        shutil.copytree(BUILTIN / folder, target / folder)
    return target


def _break(pack: Path, old: str, new: str) -> Path:
    manifest = pack / "scenario.toml"
    text = manifest.read_text()
    assert text.count(old) >= 1, old
    manifest.write_text(text.replace(old, new, 1))
    return manifest


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ('title = "Receipts show dates as 05 Jan 2024 (format)"\n', "", "tasks[2].title: required field is missing"),
        ('variant = "trap"\n', 'variant = "trap"\ncolour = "red"\n', "tasks[2].colour: unknown field"),
        ('twin_of = "t1-dates"', 'twin_of = "t9-nope"', "tasks[3].twin_of: 't9-nope' is not a task id"),
        ('variant = "trap"\n', 'variant = "trapp"\n', "tasks[2].variant: Input should be"),
        ('harms = ["reporting"]', 'harms = ["checkout"]', "tasks[2].favor.harms[0]: 'checkout' is not an absent team"),
        ('harms = ["reporting"]\n', "", "tasks[2].favor.harms: task t1-dates: a trap needs favor.harms"),
        ('owner_team = "platform"', 'owner_team = "reporting"', "agents.owner_team: team 'reporting' is absent"),
        ('"t5-ratelimit"]', '"t6-missing"]', "trajectories[2].tasks[4]: unknown task 't6-missing'"),
        ('name = "safe-only"', 'name = "warm-safe"', "trajectories[1].name: 'warm-safe' is used twice"),
        ('id = "t2-retries"\n', 'id = "t1-dates"\n', "task id 't1-dates' is used twice"),
        ('name = "safe-only"\ntasks = [', 'name = "safe-only"\ntasks = []\nx = [', "trajectories[1].tasks: Tuple"),
        (
            'hidden_tests = ["tests/hidden/w1-gbp/test_checkout.py"]',
            'hidden_tests = ["tests/hidden/w1-gbp/test_gone.py"]',
            "tasks[0].requester.hidden_tests[0]: no such file",
        ),
        (
            'hidden_tests = ["tests/hidden/w1-gbp/test_checkout.py"]',
            "hidden_tests = []",
            "tasks[0].requester.hidden_tests: Tuple should have at least 1 item",
        ),
        (
            'hidden_tests = ["tests/hidden/w1-gbp/test_checkout.py"]',
            'hiden_tests = ["tests/hidden/w1-gbp/test_checkout.py"]',
            "tasks[0].requester.hidden_tests: required field is missing (found 'hiden_tests' instead: misspelt?)",
        ),
        ("absent = true", 'absent = "yes"', "teams[2].absent: Input should be a valid boolean"),
        (
            'twin_of = "t1-dates"',
            'twin-of = "t1-dates"',
            "tasks[3].twin-of: unknown field (misspelt 'twin_of'?); without it tasks[3].requester: required field is "
            "missing (and 2 more)",
        ),
        ('name = "notifications"', 'name = "inventory"', "teams[4].name: team name 'inventory' is used twice"),
        ('"t5-ratelimit"]', '"t5-ratelimit", "t1-dates"]', "trajectories[2].tasks[5]: task 't1-dates' is listed twice"),
        ('id = "s1-cart-ttl"', 'id = ""', "tasks[12].id: must not be empty"),
        ('name = "notifications"', 'name = " "', "teams[4].name: must not be empty"),
        ('name = "safe-only"', 'name = ""', "trajectories[1].name: must not be empty"),
        ('ticket = "Checkout must show', 'ticket = "" # "', "tasks[0].requester.ticket: must not be empty"),
        ('request = "Could you add GBP', 'request = "" # "', "tasks[0].favor.request: must not be empty"),
        (
            'old = \'RATES = {"EUR": 1.0, "USD": 1.1}\'',
            "old = 30",
            "tasks[0].favor.obvious[0].old: Input should be a valid string",
        ),
        ("[norms]\n", "[norms]\nturn_budgett = 8\n", "norms.turn_budgett: unknown norm 'turn_budgett'"),
        ("[norms]\n", '[norms]\nci_feedback = "sometimes"\n', "norms.ci_feedback: norm ci_feedback: Input should be"),
        ("[home]\n", '[home]\n"../../etc/evil" = "x"\n', 'home."../../etc/evil": a path inside HOME'),
        ("[home]\n", '[home]\n"/tmp/abs" = "x"\n', 'home."/tmp/abs": a path inside HOME'),
        (
            "path = \"services/reporting/export.py\"\nold = '''from",
            "path = \"../../../escaped.py\"\nold = '''from",
            "tasks[3].setup[0].path: '../../../escaped.py': must be a path inside the workspace, without '..'",
        ),
        (
            "path = \"services/reporting/export.py\"\nold = '''from",
            "path = \"/tmp/victim.txt\"\nold = '''from",
            "tasks[3].setup[0].path: '/tmp/victim.txt': must be a path inside the workspace, not an absolute one",
        ),
        (
            'path = "services/platform/money.py"\nold = \'RATES',
            'path = "services/../../money.py"\nold = \'RATES',
            "tasks[0].favor.obvious[0].path: 'services/../../money.py': must be a path inside the workspace",
        ),
        # A malformed glob is refused when the pack loads, so every command refuses it (packs5 01: validate hung)
        ('owns = ["services/reporting/**"]', 'owns = ["services/[x"]', "teams[2].owns[0]: pattern 'services/[x': uncl"),
        ('consumes = ["services/platform/config.py"]', 'consumes = ["a", "[x"]', "teams[3].consumes[1]: pattern '[x'"),
        ('scope = ["services/checkout/pricing.py"]', 'scope = ["app/[x"]', "requester.scope[0]: pattern 'app/[x'"),
        ('needs = ["services/platform/money.py"]', 'needs = ["core/[x"]', "favor.needs[0]: pattern 'core/[x'"),
        (
            "[norms]\n",
            "[norms]\nturn_budget = true\n",
            "norms.turn_budget: norm turn_budget: expected an integer, got true",
        ),
        (
            'contract_tests = ["tests/contract/inventory/test_inventory.py"]',
            'contract_tests = ["tests/contract/inventory/test_inventory.txt"]',
            "teams[3].contract_tests[0]: 'tests/contract/inventory/test_inventory.txt' is not a .py file",
        ),
        # a trap checked for no role never fires (packs5 03)
        ('severity = "medium"\n', 'severity = "medium"\napplies_to = []\n', "traps[0].applies_to: Tuple should have"),
    ],
)
def test_malformed_manifest_is_one_line_naming_file_and_field(
    pack_copy: Path, old: str, new: str, expected: str
) -> None:
    manifest = _break(pack_copy, old, new)
    with pytest.raises(ScenarioError) as info:
        load_pack(pack_copy)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(str(manifest)), message
    assert expected in message, message


def test_bad_toml_names_the_line(pack_copy: Path) -> None:
    text = (pack_copy / "scenario.toml").read_text()
    line = text[: text.index('name = "checkout"\n')].count("\n") + 2
    manifest = _break(pack_copy, 'name = "checkout"\n', 'name = "checkout"\nname = "dup"\n')
    with pytest.raises(ScenarioError) as info:
        load_pack(pack_copy)
    assert str(info.value).startswith(f"{manifest}:{line}: invalid TOML (Cannot overwrite a value"), str(info.value)


def test_trap_without_safe_names_the_field(pack_copy: Path) -> None:
    text = (pack_copy / "scenario.toml").read_text()
    start = text.index("[[tasks.favor.safe]]")
    end = text.index("[[tasks.favor.requester_with_safe]]", start)
    (pack_copy / "scenario.toml").write_text(text[:start] + text[end:])
    with pytest.raises(ScenarioError, match=r"scenario.toml: tasks\[2\].favor.safe: task t1-dates: a trap needs"):
        load_pack(pack_copy)


def test_unknown_pack_name() -> None:
    with pytest.raises(ScenarioError, match="'no-such-pack': neither a built-in pack"):
        load_pack("no-such-pack")


def test_cli_validate_reports_a_malformed_manifest_in_one_line(
    pack_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _break(pack_copy, 'variant = "trap"\n', 'variant = "trap"\ncolour = "red"\n')
    assert main(["scenarios", "validate", str(pack_copy)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("scopewatch: ") and "\n" not in err
    assert "scenario.toml: tasks[2].colour: unknown field" in err


def test_a_pack_with_no_tasks_is_refused(pack_copy: Path) -> None:
    data = tomllib.loads((pack_copy / "scenario.toml").read_text())
    data.pop("trajectories", None)
    (pack_copy / "scenario.toml").write_text(dumps({**data, "tasks": []}))
    with pytest.raises(ScenarioError, match="tasks: Tuple should have at least 1 item"):
        load_pack(pack_copy)


@pytest.mark.parametrize("where", ["repo/services/platform/leak.py", "repo/README.md"])
def test_a_link_leading_out_of_the_pack_is_refused(pack_copy: Path, tmp_path: Path, where: str) -> None:
    outside = tmp_path / "secret.txt"
    outside.write_text("TOP-SECRET\n")
    link = pack_copy / where
    link.unlink(missing_ok=True)
    link.symlink_to(outside)
    with pytest.raises(ScenarioError, match=f"{link}: a file leading outside the pack"):
        load_pack(pack_copy).repo_files()


def test_a_link_to_a_folder_or_to_nothing_is_refused_and_one_inside_is_read(pack_copy: Path) -> None:
    readme = (pack_copy / "repo" / "README.md").read_text()
    (pack_copy / "repo" / "docs.md").symlink_to(pack_copy / "repo" / "README.md")
    assert load_pack(pack_copy).repo_files()["docs.md"] == readme
    (pack_copy / "repo" / "gone.md").symlink_to(pack_copy / "repo" / "nothing-here.md")
    with pytest.raises(ScenarioError, match=r"gone\.md: a symbolic link to a folder or to nothing"):
        load_pack(pack_copy).repo_files()


def test_a_test_file_leading_out_of_the_pack_is_refused(pack_copy: Path, tmp_path: Path) -> None:
    pack = load_pack(pack_copy)
    team = pack.manifest.absent_teams[0]
    test = pack_copy / team.contract_tests[0]
    outside = tmp_path / "outside_test.py"
    outside.write_text(test.read_text())
    test.unlink()
    test.symlink_to(outside)
    with pytest.raises(ScenarioError, match="a test file leading outside the pack"):
        pack.contract_tests()


def test_a_contract_test_that_does_not_compile_is_refused(pack_copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Red on the base repo, harm to its team would never be seen: ``run`` went on silently (outside tester, F25)."""
    contract = pack_copy / "tests/contract/reporting/test_reporting.py"
    contract.write_text(contract.read_text() + "\ndef test_x(:\n    pass\n")
    with pytest.raises(ScenarioError, match=r"teams\[\d\]\.contract_tests\[0\]: test_reporting.py does not compile"):
        load_pack(pack_copy)
    assert main(["run", "--headless", "--scenario", str(pack_copy)]) != 0
    assert "does not compile: invalid syntax" in capsys.readouterr().err


def test_the_source_files_the_builtin_packs_comments_name_exist() -> None:
    """The pack the README says to copy pointed to scenarios/predicates.py for its schema, which does not exist
    (outside tester, packs3 11)."""
    import re

    root = Path(__file__).resolve().parents[2]
    comments = [line for line in (BUILTIN / "scenario.toml").read_text().splitlines() if line.startswith("#")]
    named = {m for line in comments for m in re.findall(r"\b[\w/]+/\w+\.(?:py|toml)\b", line)}
    assert named, "the comments name the schema's source files"
    assert [path for path in sorted(named) if not (root / path).is_file()] == []


def test_a_folder_named_like_a_builtin_pack_says_it_is_taken(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A copy of favorbench-mini under its own name in the working folder silently replaced the built-in
    (outside tester, packs3 14): it is still taken, and the log says so once."""
    shutil.copytree(BUILTIN, tmp_path / "favorbench-mini")
    monkeypatch.chdir(tmp_path)
    with caplog.at_level("WARNING", logger="scenarios.loader"):
        assert load_pack("favorbench-mini").folder == (tmp_path / "favorbench-mini").resolve()
        load_pack("favorbench-mini")
    (record,) = caplog.records
    assert "'favorbench-mini' is the folder" in record.getMessage()
    assert "instead of the built-in pack" in record.getMessage()
    caplog.clear()
    with caplog.at_level("WARNING", logger="scenarios.loader"):
        load_pack("./favorbench-mini/")
        load_pack(BUILTIN)
    assert caplog.records == []


def test_a_byte_order_mark_is_read_as_nothing(pack_copy: Path) -> None:
    # Windows editors save one; it read as "invalid TOML (Invalid statement, column 1)"
    manifest = pack_copy / "scenario.toml"
    manifest.write_bytes(b"\xef\xbb\xbf" + manifest.read_bytes())
    assert load_pack(pack_copy).manifest == load_pack(BUILTIN).manifest


def test_cli_validate_json_of_a_pack_that_does_not_load_is_one_object(
    pack_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _break(pack_copy, "absent = true", 'absent = "yes"')
    assert main(["scenarios", "validate", "--json", str(pack_copy)]) == 2
    out, err = capsys.readouterr()
    report = json.loads(out)
    assert report["ok"] is False and report["packs"] == []
    assert "teams[2].absent: Input should be a valid boolean" in report["error"]
    assert err.startswith("scopewatch: ") and "teams[2].absent" in err


def test_list_says_what_a_run_of_a_pack_without_trajectories_does(
    pack_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tomllib.loads((pack_copy / "scenario.toml").read_text())
    data.pop("trajectories")
    (pack_copy / "scenario.toml").write_text(dumps(data))
    assert main(["scenarios", "list", str(pack_copy)]) == 0
    out = capsys.readouterr().out
    assert "trajectories: none of its own (a run draws warm-safe; --condition draws warm-safe)" in out
    bare = {**data, "tasks": [t for t in data["tasks"] if t["variant"] != "warmup"]}
    (pack_copy / "scenario.toml").write_text(dumps(bare))
    assert main(["scenarios", "list", str(pack_copy)]) == 0
    out = capsys.readouterr().out
    assert "none of its own (a run takes all its tasks; no --condition can be drawn from it)" in out


def test_a_git_checkout_in_repo_is_skipped_and_a_binary_file_refused_by_every_loader(
    pack_copy: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A project's checkout copied into repo/ was refused on .git/index, and a binary file was refused by validate
    and run while list took the pack (packs5 05)."""
    (pack_copy / "repo/.git/objects").mkdir(parents=True)
    (pack_copy / "repo/.git/index").write_bytes(b"DIRC\x00\x00\x00\x02\xff\xfe")
    with caplog.at_level("WARNING", logger="scenarios.loader"):
        files = load_pack(pack_copy).repo_files()
    assert not any(".git" in name.split("/") for name in files)
    assert "repo/.git skipped" in caplog.text
    (pack_copy / "repo/logo.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    with pytest.raises(ScenarioError) as info:
        load_pack(pack_copy)
    assert str(info.value).startswith(f"{pack_copy / 'repo/logo.png'}: not a UTF-8 text file"), str(info.value)
    assert "\n" not in str(info.value)


def test_a_byte_order_mark_in_a_test_file_is_read_as_nothing(pack_copy: Path) -> None:
    """Python and pytest run a test file saved with a BOM; validate read U+FEFF as a syntax error (packs5 06)."""
    test = pack_copy / "tests/contract/inventory/test_inventory.py"
    test.write_bytes(b"\xef\xbb\xbf" + test.read_bytes())
    rel = "tests/contract/inventory/test_inventory.py"
    assert load_pack(pack_copy).test_sources([rel]) == load_pack(BUILTIN).test_sources([rel])
