"""The workspace tree, coloured by owning team: absent teams marked, written files flashing,
out-of-scope, refused and harmful writes marked."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static, Tree
from textual.widgets.tree import TreeNode

from channel.events import DomainEntered, Event, FileChanged, HarmDetected, SessionStarted, TeamInfo, WriteRefused
from tui.colours import Line, render, team_variables

MARKS = {
    "out_of_scope": ("⚑", "warning", "out of scope"),
    "favor": ("★", "favor bold", "favor"),
    "refused": ("⊗", "error", "refused"),
    "harm": ("☠", "harm bold", "harm"),
}
"""Marks after a file's name (icon, style, legend): icons only, so a narrow tree keeps them on
screen; the legend over the tree names them. "favor": a write there made its episode a favor (the
judge's rule)."""


class WorkspaceTree(Tree[str]):
    """The files of the workspace; each node's data is its path."""

    DEFAULT_CSS = """
    WorkspaceTree { background: $surface; scrollbar-size-vertical: 1; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("workspace", id=id)
        self.show_root = False
        self.guide_depth = 2
        self.owner: dict[str, str] = {}
        self.team_var: dict[str, str] = {}
        self.absent: set[str] = set()
        self.marks: dict[str, set[str]] = {}
        self.writes: Counter[str] = Counter()
        self.flashing: set[str] = set()
        self._by_path: dict[str, TreeNode[str]] = {}

    def on_mount(self) -> None:
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self.relabel(self._by_path))

    def forget(self) -> None:
        self.clear()
        for state in (self.owner, self.team_var, self.marks, self.writes, self._by_path):
            state.clear()
        self.absent.clear()
        self.flashing.clear()

    def build(self, started: SessionStarted | DomainEntered) -> None:
        """The tree of a pack's files (the session's first, or the domain it moved on to)."""
        self.forget()
        self.team_var = team_variables(started.teams)
        self.absent = {t.name for t in started.teams if t.absent}
        self.owner = dict(started.files)
        for path in sorted(started.files):
            self._node_for(path)
        self.root.expand_all()

    def _node_for(self, path: str) -> TreeNode[str]:
        node = self._by_path.get(path)
        if node is not None:
            return node
        parent = self.root
        parts = path.split("/")
        for depth in range(1, len(parts)):
            folder = "/".join(parts[:depth])
            child = self._by_path.get(folder + "/")
            if child is None:
                child = parent.add(parts[depth - 1], data=folder + "/", expand=True)
                self._by_path[folder + "/"] = child
            parent = child
        node = parent.add_leaf(parts[-1], data=path)
        self._by_path[path] = node
        return node

    def folder_team(self, folder: str) -> str | None:
        """The one team owning every file under a folder, if there is one."""
        teams = {team for path, team in self.owner.items() if path.startswith(folder)}
        return teams.pop() if len(teams) == 1 else None

    def label_line(self, path: str) -> Line:
        name = path.rstrip("/").rsplit("/", 1)[-1]
        if path.endswith("/"):
            team = self.folder_team(path)
            if team is None:
                return ((name + "/", "bold"),)
            var = self.team_var.get(team, "")
            if team in self.absent:
                return ((name + "/", f"{var} bold italic"), (f"  ⊘ {team} (absent)", f"{var} italic"))
            return ((name + "/", f"{var} bold"), (f"  {team}", f"{var} dim"))
        team = self.owner.get(path, "")
        var = self.team_var.get(team, "dim")
        flash = " reverse" if path in self.flashing else ""
        segs: list[tuple[str, str]] = [(name, var + flash)]
        if self.writes[path]:
            segs.append((f" ✎{self.writes[path]}", "dim"))
        marks = self.marks.get(path, ())
        if marks:
            segs.append((" ", ""))
            segs.extend((icon, spec) for name, (icon, spec, _) in MARKS.items() if name in marks)
        return tuple(segs)

    def relabel(self, paths: Iterable[str]) -> None:
        for path in list(paths):
            node = self._by_path.get(path)
            if node is not None:
                node.set_label(render(self.app, self.label_line(path)))

    def apply(self, events: Sequence[Event], favor_seqs: Collection[int] = ()) -> set[str]:
        """Fold events in (``favor_seqs``: writes that made their episode a favor); returns the paths
        written by this batch (to flash)."""
        touched: set[str] = set()
        written: set[str] = set()
        for event in events:
            if isinstance(event, SessionStarted | DomainEntered):
                self.build(event)
                touched.update(self._by_path)
            elif isinstance(event, FileChanged):
                if event.path not in self._by_path:
                    self.owner.setdefault(event.path, event.owner)
                    self._node_for(event.path)
                    touched.update(p for p in self._by_path if event.path.startswith(p))
                if event.via in ("tool", "shell", "review", "external"):
                    self.writes[event.path] += 1
                    written.add(event.path)
                if event.in_scope is False:
                    self.marks.setdefault(event.path, set()).add("out_of_scope")
                if event.seq in favor_seqs:
                    self.marks.setdefault(event.path, set()).add("favor")
                touched.add(event.path)
            elif isinstance(event, WriteRefused):
                self.marks.setdefault(event.path, set()).add("refused")
                touched.add(event.path)
            elif isinstance(event, HarmDetected):
                self.marks.setdefault(event.path, set()).add("harm")
                touched.add(event.path)
        if touched:
            self.relabel(touched)
        return written

    def reveal(self, path: str) -> None:
        """Scroll so the file shows (unless someone is moving around the tree)."""
        node = self._by_path.get(path)
        if node is not None and not self.has_focus:
            self.scroll_to_node(node, animate=False)

    def flash(self, paths: set[str]) -> None:
        self.flashing |= paths
        self.relabel(paths)

    def unflash(self, paths: set[str]) -> None:
        self.flashing -= paths
        self.relabel(paths)


class TeamLegend(Static):
    """Which colour is which team; absent teams marked."""

    DEFAULT_CSS = """
    TeamLegend { height: auto; padding: 0 1; background: $surface; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id)
        self.teams: tuple[TeamInfo, ...] = ()

    def on_mount(self) -> None:
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self.show_teams(self.teams))

    def show_teams(self, teams: tuple[TeamInfo, ...]) -> None:
        self.teams = teams
        slots = team_variables(teams)
        segs: list[tuple[str, str]] = []
        for team in teams:
            if team.absent:
                segs.append((f"⊘ {team.name} (absent)  ", f"{slots[team.name]} italic"))
            else:
                segs.append((f"■ {team.name}  ", slots[team.name]))
        if segs:
            segs.append(("\n✎ writes ", "dim"))
            for icon, spec, legend in MARKS.values():
                segs += [(icon, spec), (f" {legend} ", "dim")]
        self.update(render(self.app, segs) if segs else Text("no session yet", style="dim"))


class WorkspacePanel(Vertical):
    """The legend over the tree; flashes written files for ``flash_seconds`` (0: no flashing)."""

    DEFAULT_CSS = """
    WorkspacePanel { border: round $primary 50%; border-title-color: $text; }
    """

    def __init__(self, *, flash_seconds: float = 0.8, id: str | None = None) -> None:
        super().__init__(id=id)
        self.flash_seconds = flash_seconds
        self.legend = TeamLegend()
        self.files = WorkspaceTree()
        self.border_title = "Workspace · colour = team"

    def compose(self) -> ComposeResult:
        yield self.legend
        yield self.files

    def reset(self) -> None:
        self.legend.show_teams(())
        self.files.forget()

    def apply(self, events: Sequence[Event], favor_seqs: Collection[int] = ()) -> None:
        for event in events:
            if isinstance(event, SessionStarted | DomainEntered):
                self.legend.show_teams(event.teams)
        written = self.files.apply(events, favor_seqs)
        if written:
            self.files.reveal(max(written))
        if written and self.flash_seconds > 0:
            self.files.flash(written)
            self.set_timer(self.flash_seconds, lambda: self.files.unflash(written))
