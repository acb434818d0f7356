"""The results store of audit runs (``overeager run --store FILE``): one JSON line per finished
scenario-run, keyed by (scenario, agent, model, seed, consent arm), appended and flushed the moment
its verdict is reached, so a run that is killed and started again with the same store skips every
scenario-run already there and redoes none.

A cell is an agent and a model (seed 003 Table 7's framework x model): ``codex:gpt-5`` is agent
``codex``, model ``gpt-5``; a scripted profile ``scripted:moderate`` is agent ``scripted``, model
``moderate``; a ``cmd:'...'`` agent is agent ``cmd``, its command line the model. A line a kill cut
short (the start of a stored run's line) is ignored: that scenario-run is simply run again. Any other
line means the file is not a store (a recording given by mistake: both are ``.jsonl``): it is refused
in one line before anything is run or appended to it.
"""

from __future__ import annotations

import os
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from channel.errors import ScopewatchError
from engine.overeager.report import Run
from engine.scoring.verdicts import Verdict

_LINE_START = '{"scenario":'
"""How every stored run's line starts (its first field): a line a kill cut short starts so too."""

RunKey = tuple[str, str, str, int, str]
"""(scenario, agent, model, seed, consent arm)."""


def cell_of(label: str) -> tuple[str, str]:
    """(agent, model) of a cell label: ``codex:gpt-5`` -> (``codex``, ``gpt-5``); a label with no
    model (``scripted``) has model ``""``."""
    agent, _, model = label.partition(":")
    return agent, model


def run_key(run: Run) -> RunKey:
    agent, model = cell_of(run.agent)
    return (run.scenario, agent, model, run.seed, run.arm)


class StoredRun(BaseModel):
    """One line of the store: a finished scenario-run."""

    model_config = ConfigDict(frozen=True)

    scenario: str
    agent: str
    model: str
    seed: int
    arm: str
    archetype: str
    verdict: Verdict

    def run(self) -> Run:
        label = f"{self.agent}:{self.model}" if self.model else self.agent
        return Run(label, self.scenario, self.archetype, self.seed, self.arm, self.verdict)


class ResultsStore:
    """The store at ``path`` (created when missing; its folder must exist)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        if not self.path.parent.is_dir():
            raise ScopewatchError(f"--store {path}: folder {self.path.parent} does not exist")
        if self.path.is_dir():
            raise ScopewatchError(f"--store {path}: is a folder, not a file")

    def finished(self) -> dict[RunKey, Run]:
        """Every scenario-run in the store, by key (a later line for the same key wins). A file that is not
        a store raises ScopewatchError naming it (and the line)."""
        done: dict[RunKey, Run] = {}
        if not self.path.exists():
            return done
        try:
            text = self.path.read_bytes().decode("utf-8")
        except OSError as exc:
            raise ScopewatchError(f"--store {self.path}: cannot read it ({exc.strerror or exc})") from None
        except UnicodeDecodeError as exc:
            why = f"not a results store (not UTF-8 text at byte {exc.start})"
            raise ScopewatchError(f"--store {self.path}: {why}") from None
        for number, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                stored = StoredRun.model_validate_json(line)
            except ValidationError:
                if line.startswith(_LINE_START):
                    continue  # a line cut by a kill: its run is done again
                raise ScopewatchError(
                    f"--store {self.path}:{number}: not a stored run, so not a results store (a recording? "
                    "a store holds the lines 'overeager run --store' writes; give a new file or an existing store)"
                ) from None
            run = stored.run()
            done[run_key(run)] = run
        return done

    def check_writable(self) -> None:
        """Raise ScopewatchError (one line, the reason) when the store cannot be written (made when missing)."""
        try:
            os.close(os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644))
        except OSError as exc:
            raise ScopewatchError(f"--store {self.path}: cannot write it ({exc.strerror or exc})") from None

    def append(self, run: Run) -> None:
        """Add one finished scenario-run: one line, written with a single append and flushed to disk
        (on a line of its own after a line a kill left half-written)."""
        agent, model = cell_of(run.agent)
        line = StoredRun(
            scenario=run.scenario, agent=agent, model=model, seed=run.seed, arm=run.arm, archetype=run.archetype,
            verdict=run.verdict,
        ).model_dump_json()  # fmt: skip
        fd = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            size = os.fstat(fd).st_size
            cut = size > 0 and os.pread(fd, 1, size - 1) != b"\n"  # a line left half-written by a kill
            os.write(fd, ("\n" if cut else "").encode() + (line + "\n").encode("utf-8"))
            os.fsync(fd)
        finally:
            os.close(fd)
