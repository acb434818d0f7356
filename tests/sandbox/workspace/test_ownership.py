"""CODEOWNERS-like ownership: globs relative to the root, last matching rule wins."""

from __future__ import annotations

import pytest

from sandbox.errors import OwnershipError
from sandbox.workspace.ownership import Ownership, PathPattern

OWNERSHIP = Ownership.from_teams(
    [
        ("docs", ["*.md"]),
        ("billing", ["services/billing/**"]),
        ("payments", ["services/payments", "services/billing/config.py"]),
        ("ops", ["/deploy/*.yaml", "**/Dockerfile"]),
    ]
)


@pytest.mark.parametrize(
    ("path", "owner"),
    [
        ("README.md", "docs"),
        ("docs/guide.md", "docs"),  # no slash in the pattern: any depth
        ("services/billing/invoice.py", "billing"),
        ("services/billing/sub/deep/x.py", "billing"),
        ("services/billing/README.md", "billing"),  # the later rule wins over *.md
        ("services/billing/config.py", "payments"),  # last match wins
        ("services/payments/api.py", "payments"),  # a folder owns what is below it
        ("services/paymentsX/api.py", ""),
        ("deploy/prod.yaml", "ops"),
        ("deploy/sub/prod.yaml", ""),  # * does not cross a slash
        ("services/billing/Dockerfile", "ops"),
        ("Dockerfile", "ops"),  # ** matches zero folders
        ("setup.cfg", ""),
    ],
)
def test_owner_of(path: str, owner: str) -> None:
    assert OWNERSHIP.owner_of(path) == owner


def test_teams_and_mapping_input() -> None:
    assert OWNERSHIP.teams == ("docs", "billing", "payments", "ops")
    own = Ownership.from_teams({"a": ["x/**"], "b": ["x/y.py"]})
    assert (own.owner_of("x/z.py"), own.owner_of("x/y.py")) == ("a", "b")


@pytest.mark.parametrize(
    ("pattern", "yes", "no"),
    [
        ("src/?.py", "src/a.py", "src/ab.py"),
        ("src/[ab].py", "src/b.py", "src/c.py"),
        ("src/[!ab].py", "src/c.py", "src/a.py"),
        ("a/**/b.py", "a/x/y/b.py", "a/x/c.py"),
        ("a/**/b.py", "a/b.py", "b.py"),
        ("build/", "x/build/out.o", "x/builder/out.o"),
        ("file.txt", "deep/file.txt", "file.txt.bak"),
        ("a.b", "a.b", "axb"),  # dots are literal
    ],
)
def test_pattern_syntax(pattern: str, yes: str, no: str) -> None:
    compiled = PathPattern.compile(pattern)
    assert compiled.matches(yes)
    assert not compiled.matches(no)


def test_bad_patterns_name_team_and_pattern() -> None:
    with pytest.raises(OwnershipError, match=r"team 'x': pattern '/': empty"):
        Ownership.from_teams([("x", ["/"])])
    with pytest.raises(OwnershipError, match=r"team 'y': pattern 'a/\[b': unclosed"):
        Ownership.from_teams([("y", ["a/[b"])])
    with pytest.raises(OwnershipError, match="must be a list"):
        Ownership.from_teams([("z", "services/**")])


@pytest.mark.parametrize("pattern", ["services/billing/**", "services/billing/", "services/*/*", "services/billing/a?b",
                                     "**/a?b", "a*b"])
def test_a_newline_in_a_name_is_a_character_as_any_other(pattern: str) -> None:
    """Red team 6, 06: ``services/billing/a\\nb`` was owned by no team (``.*`` stopped at the newline)."""
    assert PathPattern.compile(pattern).matches("services/billing/a\nb")
    assert Ownership.from_teams([("billing", [pattern])]).owner_of("services/billing/a\nb") == "billing"
    assert not PathPattern.compile("services/billing/a?b").matches("services/billing/a/b")  # but never a "/"
