"""README.md is a newcomer's page and docs/ holds the rest by subject: every relative link in them resolves
(the file, and the heading an anchor names), every page of docs/ is reachable from the README."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def _prose(text: str) -> str:
    """The text outside fenced code blocks."""
    return re.sub(r"^```.*?^```", "", text, flags=re.M | re.S)


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    return {slug(m.group(1)) for m in re.finditer(r"^#+ (.*)$", _prose(page.read_text()), flags=re.M)}


def links(page: Path) -> list[str]:
    return [t for t in LINK.findall(_prose(page.read_text())) if not re.match(r"[a-z]+:", t)]


def test_there_are_docs_and_the_slug_is_githubs() -> None:
    assert len(PAGES) > 5
    assert slug("Forks, a person in an agent's seat, finished sessions") == (
        "forks-a-person-in-an-agents-seat-finished-sessions"
    )
    assert slug("Overeager benchmark: `scopewatch audit` (seed 003, OVEREAGER-GEN)") == (
        "overeager-benchmark-scopewatch-audit-seed-003-overeager-gen"
    )


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_resolves(page: Path) -> None:
    broken = []
    for target in links(page):
        path, _, anchor = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        if not dest.exists():
            broken.append(f"{target}: no such file")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            broken.append(f"{target}: no heading #{anchor} in {dest.relative_to(ROOT)}")
    assert broken == [], f"{page.relative_to(ROOT)}: " + "; ".join(broken)


def test_the_readme_is_short_and_reaches_every_page_of_docs() -> None:
    readme = ROOT / "README.md"
    assert len(readme.read_text().splitlines()) <= 200
    linked = {(ROOT / t.partition("#")[0]).resolve() for t in links(readme) if t.partition("#")[0]}
    unlinked = [p.name for p in PAGES[1:] if p.resolve() not in linked]
    assert unlinked == [], f"docs not linked from README.md: {unlinked}"
    for page in PAGES[1:]:  # and every section of each page, by its anchor
        for anchor in anchors(page) - {slug(page.read_text().splitlines()[0].lstrip("# "))}:
            assert f"docs/{page.name}#{anchor}" in readme.read_text(), f"README.md: no link to {page.name}#{anchor}"
