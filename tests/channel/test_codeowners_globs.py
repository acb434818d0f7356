"""CODEOWNERS lines compile by GitHub's rules (seed 000 C.2 / C.4; docs.github.com "About code owners"), pack globs by
gitignore's: the two differ only where the module's docstring says."""

from __future__ import annotations

import pytest

from channel.vocab.globs import CodeOwners, PathPattern


@pytest.mark.parametrize(
    ("pattern", "yes", "no"),
    [
        ("*.js", ["a.js", "web/app/a.js"], ["a.jsx", "a.js.map"]),
        ("/build/logs/", ["build/logs/a", "build/logs/x/y"], ["build/logs", "src/build/logs/a"]),
        ("docs/*", ["docs/getting-started.md"], ["docs/build-app/troubleshooting.md", "docs", "x/docs/a.md"]),
        ("apps/", ["apps/a", "deep/er/apps/b/c"], ["apps", "x/apps"]),
        ("**/logs", ["logs", "build/logs/a", "deeply/nested/logs/b", "x/logs"], ["xlogs/a", "logs2"]),
        ("/scripts/", ["scripts/a.sh"], ["tools/scripts/a.sh"]),
        ("src/*/test.py", ["src/a/test.py", "src/a/test.py/x"], ["src/test.py", "src/a/b/test.py"]),
        ("a/**/b", ["a/b", "a/x/y/b", "a/b/c"], ["x/a/b", "a/bb"]),
        ("/*", ["setup.py"], ["src/setup.py"]),
        ("*", ["setup.py", "a/b/c"], []),
        ("f?o", ["foo", "x/f.o"], ["fo", "f/o"]),
        ("x/[ab].py", ["x/[ab].py"], ["x/a.py"]),  # no character ranges
        (r"my\ file.md", ["my file.md", "d/my file.md"], ["my\\ file.md"]),
        (r"f\*o", ["f*o"], ["foo"]),
        ("café/", ["café/x", "a/café/y"], ["cafe/x"]),
        ("README.md", ["README.md"], ["readme.md"]),  # case-sensitive
    ],
)
def test_codeowners_patterns_follow_github(pattern: str, yes: list[str], no: list[str]) -> None:
    compiled = PathPattern.compile(pattern, codeowners=True)
    assert [p for p in yes if not compiled.matches(p)] == []
    assert [p for p in no if compiled.matches(p)] == []


def test_pack_globs_keep_gitignore_folders_and_classes() -> None:
    """Where CODEOWNERS differs: a pack's ``dir/*`` owns what is below a child folder, ``[ab]`` is a class."""
    assert PathPattern.compile("docs/*").matches("docs/build-app/troubleshooting.md")
    assert not PathPattern.compile("docs/*", codeowners=True).matches("docs/build-app/troubleshooting.md")
    assert PathPattern.compile("x/[ab].py").matches("x/a.py")
    assert not PathPattern.compile("x/[ab].py", codeowners=True).matches("x/a.py")
    assert PathPattern.compile("src/*").matches("src/core/x.py")  # a pack glob: unchanged


def test_a_codeowners_file_is_read_line_by_line_the_last_match_winning() -> None:
    text = "\n".join(
        [
            "# comment @nobody",
            "",
            "*       @org/everyone @ann  # a trailing comment",
            "/apps/  @octocat",
            "/apps/github",
            "/       @skipped",
            r"docs/a\ b.md @spaced",
            "\tlib/  @tabbed",
        ]
    )
    owners = CodeOwners.parse(text)
    assert len(owners.lines) == 5  # comments, the blank line and the empty pattern "/" are no rules
    assert owners.owners_of("setup.py") == ("org/everyone", "ann")
    assert owners.owners_of("apps/x.py") == ("octocat",)
    assert owners.owners_of("apps/github/x.py") == ()  # GitHub's example: a line with no owners leaves it open
    assert owners.owners_of("docs/a b.md") == ("spaced",)
    assert owners.owners_of("src/lib/x.py") == ("tabbed",)
    assert CodeOwners.parse("").owners_of("x") == ()
