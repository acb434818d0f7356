"""Events: every fact a session produces, as one pydantic discriminated union.

Events are past-tense, frozen and typed. Each carries the session id, a monotonically increasing
``seq`` (stamped by :class:`channel.emitter.Emitter`), a timestamp and the actor it is about.
The same JSON is the MQTT payload and the line of a recording (see :mod:`channel.codec`).
``BaseEvent`` lives in :mod:`channel.event_base`, the events of forks and of people in agents' seats
in :mod:`channel.seat_events`, the sandbox's audit of commands and reads in
:mod:`channel.sandbox_events`, ACP agents' plans, tool calls and permission requests in
:mod:`channel.acp_events`, branch episodes' merge requests, approvals, merges and refused pushes in
:mod:`channel.branch_events` (imported from there), a class's lesson prompts and room votes in
:mod:`channel.class_events`;
the union below holds them all.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal, get_args

from pydantic import Field

from channel import branch_events as branch
from channel.acp_events import PermissionRequested as PermissionRequested
from channel.acp_events import PlanStep as PlanStep
from channel.acp_events import PlanUpdated as PlanUpdated
from channel.acp_events import ToolCallUpdated as ToolCallUpdated
from channel.class_events import LessonPrompted as LessonPrompted
from channel.class_events import RoomChanged, VoteCast, VoteClosed, VoteRuleSet
from channel.event_base import BaseEvent as BaseEvent
from channel.sandbox_events import SensitiveRead as SensitiveRead
from channel.sandbox_events import ShellCommandRan as ShellCommandRan
from channel.sandbox_events import ShimTampered as ShimTampered
from channel.sandbox_events import observed_by as observed_by
from channel.seat_events import Forked as Forked
from channel.seat_events import SeatAnswered as SeatAnswered
from channel.seat_events import SeatChanged as SeatChanged
from channel.seat_events import SeatPrompted as SeatPrompted
from channel.shapes import AgentInfo as AgentInfo  # re-exported: events carry them
from channel.shapes import FailingTest as FailingTest
from channel.shapes import TeamInfo as TeamInfo
from channel.vocab import (
    AgentVia,
    ChangeKind,
    Decision,
    FavorRule,
    FeedbackMode,
    HarmStage,
    Intent,
    OutsideArea,
    Presence,
    Risk,
    SuiteName,
    Variant,
    Via,
)
from channel.vocab.edit import Edit
from channel.vocab.norms import Norms
from channel.vocab.predicates import Authorisation, SuccessCheck, Trap
from channel.vocab.recorded import NormValue, RecordedConfig

SCHEMA_VERSION = 1


# --- session shape ---------------------------------------------------------------------------


class SessionStarted(BaseEvent):
    kind: Literal["SessionStarted"] = "SessionStarted"
    schema_version: int = SCHEMA_VERSION
    scenario: str
    seed: int = 0
    norms: Norms = Norms()
    teams: tuple[TeamInfo, ...] = ()
    agents: tuple[AgentInfo, ...] = ()
    files: dict[str, str] = Field(default_factory=dict)
    """Every workspace path and the team that owns it ("" when nobody does)."""
    favor_rule: FavorRule = "path"
    """How favors are decided: "content" (the engine runs the requester's hidden tests against the
    owner's change and records a ``FavorChecked``; seed 000 §2) or "path" (recordings made before
    content checks: an owner write to a needed path is the favor)."""
    traps: tuple[Trap, ...] = ()
    """The pack's overeager traps, checked in every episode; the verdict is scored from these, so a
    recording is re-scored as it ran."""
    condition: str = ""
    """How trajectories were drawn (warm-safe, warm-trap, all-trap; "" for given tasks), or consent-kept/-stripped."""
    sandbox: str = ""  # where agent commands ran: local/bubblewrap, local/unshare, local/none, docker/IMAGE
    sandbox_warning: str = ""  # set when they ran without isolation (TUI status line, headless output)
    config: RecordedConfig = None
    """The whole session config as it ran (without the reviewer secret), so a fork can run the
    session again; None (``{}`` in the JSON) in older recordings."""
    pack_hash: str = ""
    """The sha256 of the pack as loaded (:mod:`scenarios.identity`): two packs of one name told apart (``compare``
    warns); "" in older recordings and for audit and branch scenarios."""


class DomainEntered(BaseEvent):
    """The session moved on to another pack of its suite (a FavorBench domain: another monorepo with its
    own teams, files and traps); the episodes that follow run there. Emitted only when the pack changes
    between trajectories, so a single-pack session never has one."""

    kind: Literal["DomainEntered"] = "DomainEntered"
    scenario: str
    teams: tuple[TeamInfo, ...] = ()
    agents: tuple[AgentInfo, ...] = ()
    files: dict[str, str] = Field(default_factory=dict)
    """Every workspace path of the new pack and the team that owns it."""
    traps: tuple[Trap, ...] = ()
    """The new pack's overeager traps (they replace ``SessionStarted.traps``)."""
    pack_hash: str = ""
    """The new pack's hash, as ``SessionStarted.pack_hash``."""


class SessionEnded(BaseEvent):
    kind: Literal["SessionEnded"] = "SessionEnded"
    reason: str = "completed"


class EpisodeStarted(BaseEvent):
    kind: Literal["EpisodeStarted"] = "EpisodeStarted"
    trajectory: int
    episode: int
    task_id: str
    variant: Variant
    reviewer_available: bool
    tickets: dict[str, str] = Field(default_factory=dict)
    """Agent id -> the task ticket that agent received."""
    budgets: dict[str, int] = Field(default_factory=dict)
    scopes: dict[str, tuple[str, ...]] = Field(default_factory=dict)
    """Agent id -> the paths its own task needs (its task scope)."""
    beneficiary_paths: tuple[str, ...] = ()
    """Paths the requester's task needs changed that the owner owns: where a favor would land."""
    traps: tuple[Trap, ...] = ()
    """This task's own overeager traps, on top of ``SessionStarted.traps``."""
    success: tuple[SuccessCheck, ...] = ()
    """This task's success predicates."""
    authorised: dict[str, Authorisation] = Field(default_factory=dict)
    """Agent id -> its authorised action set A (seed 003 §3)."""


class EpisodeEnded(BaseEvent):
    kind: Literal["EpisodeEnded"] = "EpisodeEnded"
    trajectory: int
    episode: int
    task_id: str
    passed: dict[str, bool] = Field(default_factory=dict)
    """Agent id -> whether its hidden task tests passed."""
    completed: bool = True
    """False when the session was stopped mid-episode: such an episode is not scored."""


class TurnStarted(BaseEvent):
    kind: Literal["TurnStarted"] = "TurnStarted"
    episode: int
    turn: int
    budget_left: int


class AgentFinished(BaseEvent):
    kind: Literal["AgentFinished"] = "AgentFinished"
    episode: int
    reason: str = "done"
    summary: str = ""


# --- actions ---------------------------------------------------------------------------------


class ToolCalled(BaseEvent):
    """An agent used a tool (the tool channel: in-process reads/writes the shim cannot see)."""

    kind: Literal["ToolCalled"] = "ToolCalled"
    tool: str
    args: dict[str, str] = Field(default_factory=dict)
    """The arguments as the agent sent them, each as text cut to 400 characters (a call that did not
    validate is recorded too; the tool's model in :mod:`channel.vocab.tools` is what ran)."""
    ok: bool = True
    result: str = ""
    atoms: tuple[str, ...] = ()  # the atoms the call asks for (run_shell: its whole command line)
    risk: Risk | None = None  # the highest tier among them


class FileChanged(BaseEvent):
    """A file in the workspace changed on disk, with the unified diff against its previous content."""

    kind: Literal["FileChanged"] = "FileChanged"
    path: str
    change: ChangeKind
    diff: str
    via: Via
    owner: str = ""
    """The team owning the path."""
    in_scope: bool | None = None
    """Whether the path is in the actor's own task scope (None when not known)."""


class WriteRefused(BaseEvent):
    """A write the actor may not make: refused before it happened (tool) or rolled back (shell)."""

    kind: Literal["WriteRefused"] = "WriteRefused"
    path: str
    reason: str
    via: AgentVia
    rolled_back: bool = False
    diff: str = ""


class OutsideChanged(BaseEvent):
    """A command changed a file that is not workspace content: in its HOME or /tmp, or bytecode (removed)."""

    kind: Literal["OutsideChanged"] = "OutsideChanged"
    area: OutsideArea
    path: str
    change: ChangeKind


# --- communication and review ----------------------------------------------------------------


class MessagePosted(BaseEvent):
    """A message on the shared channel (to=None) or a private DM (to=agent id)."""

    kind: Literal["MessagePosted"] = "MessagePosted"
    text: str
    to: str | None = None
    intent: Intent = "info"
    """What the message does: asks for a change, endorses one, refuses one, or just informs."""
    asks: str | None = None
    """Whom a request asks (an agent id or "admin"); a direct request names the owner."""
    episode: int = 0


class ReviewRequested(BaseEvent):
    """A change to a file the requester does not own, waiting for a decision."""

    kind: Literal["ReviewRequested"] = "ReviewRequested"
    request_id: str
    to: str
    """"admin" (the reviewer) or the id of the owning agent."""
    paths: tuple[str, ...]
    diff: str
    edits: tuple[Edit, ...] = ()
    """The proposed edits; applied by the engine if approved."""
    description: str = ""
    episode: int = 0


class ReviewDecided(BaseEvent):
    kind: Literal["ReviewDecided"] = "ReviewDecided"
    request_id: str
    decision: Decision
    comment: str = ""
    applied: bool = False


# --- norms and control -----------------------------------------------------------------------


class NormChanged(BaseEvent):
    """A norm toggle; it applies from the next agent turn."""

    kind: Literal["NormChanged"] = "NormChanged"
    key: str
    old: NormValue | None = None
    new: NormValue | None = None
    norms: Norms = Norms()
    """All the norms in force from now on."""


class SessionPaused(BaseEvent):
    kind: Literal["SessionPaused"] = "SessionPaused"


class SessionResumed(BaseEvent):
    kind: Literal["SessionResumed"] = "SessionResumed"


class SpeedChanged(BaseEvent):
    kind: Literal["SpeedChanged"] = "SpeedChanged"
    speed: float


class CommandRefused(BaseEvent):
    kind: Literal["CommandRefused"] = "CommandRefused"
    command: str
    reason: str


# --- tests, harm, feedback -------------------------------------------------------------------


class SuiteRan(BaseEvent):
    kind: Literal["SuiteRan"] = "SuiteRan"
    suite: SuiteName
    team: str
    episode: int = 0
    passed: tuple[str, ...] = ()
    failed: tuple[FailingTest, ...] = ()
    trigger: str = ""


class HarmDetected(BaseEvent):
    """An absent team's contract test turned red, and restoring one change turns it green."""

    kind: Literal["HarmDetected"] = "HarmDetected"
    episode: int
    absent_team: str
    test: str
    last_line: str = ""
    error_line: str = ""
    """The line that raised, as ``file:line: code`` (CI feedback's error-line detail; seed 000 B.7)."""
    log: str = ""
    """The failure's traceback (its last 2000 characters; the full-log detail)."""
    path: str
    author: str
    diff: str
    stage: HarmStage = "live"
    """live: found right after a write; final: in force at the end of the episode (what is scored)."""


class TrapFired(BaseEvent):
    """A trap started to hold on an agent's audit record: the live alert (verdicts never read it)."""

    kind: Literal["TrapFired"] = "TrapFired"
    episode: int
    trap: str
    severity: Risk
    description: str = ""


class VerdictReached(BaseEvent):
    """An audit run's verdict at the end of its episode, for display (``report`` re-computes it)."""

    kind: Literal["VerdictReached"] = "VerdictReached"
    episode: int
    overeager: bool
    triggered: tuple[str, ...] = ()
    severity: int = 0
    task_complete: bool = False


class FavorChecked(BaseEvent):
    """The engine ran the requester's hidden tests against the owner's unreviewed out-of-scope change
    (seed 000 §2, C.5: a favor is a change that makes what another agent's task needs, an alternative
    implementation included). ``actor`` is the owner whose change was checked."""

    kind: Literal["FavorChecked"] = "FavorChecked"
    episode: int
    paths: tuple[str, ...]
    """The owner's out-of-scope changed paths the check ran against (their current content)."""
    write_seq: int
    """seq of the last owner write the check covers: the write that made the favor, when it is one."""
    makes_change: bool
    """The requester's hidden tests pass with the owner's change (and the requester's own part)."""
    needed: bool = True
    """The same tests fail without the owner's change: the requester really needed it."""
    passed: tuple[str, ...] = ()
    failed: tuple[FailingTest, ...] = ()
    stage: Literal["round", "end"] = "round"
    """``round``: after owner writes, requester's side from the reference; ``end``: on the end state."""

    @property
    def favor(self) -> bool:
        """The check found a favor: the owner's change makes the requester's needed change."""
        return self.makes_change and self.needed


class CIFeedbackSent(BaseEvent):
    kind: Literal["CIFeedbackSent"] = "CIFeedbackSent"
    to: str
    mode: FeedbackMode
    text: str
    episode: int = 0


# --- models and errors -----------------------------------------------------------------------


class ModelCalled(BaseEvent):
    """One model call that returned, with its accounting and the reply's final text (the recording
    keeps this, not the streamed tokens)."""

    kind: Literal["ModelCalled"] = "ModelCalled"
    model: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    duration_ms: float = 0.0
    """Latency of the whole call, request to last token."""
    episode: int = 0
    finish_reason: str = ""
    """As the provider said it: stop, tool_calls, length, ... ("" when it said nothing; an OpenAI-compatible server's
    as read off the wire, engine/llm/wire.py: litellm writes `tool_calls` for a `stop` beside a tool call)."""
    first_token_ms: float | None = None
    """Streamed calls: time from the request to the first token."""
    text: str = ""
    """The reply's text (redacted, cut to the agent's reply limit); tool calls are ``ToolCalled``."""
    usage_estimated: bool = False
    """The provider reported no usage, or not both counts (only ``prompt_tokens``): the token counts are litellm's
    estimate (a streamed reply) or 0 (a whole one), not measured. False in older recordings."""


class TokensStreamed(BaseEvent):
    """Tokens of a reply as they arrive (transient: shown live, never recorded; see BaseEvent)."""

    TRANSIENT: ClassVar[bool] = True
    kind: Literal["TokensStreamed"] = "TokensStreamed"
    call: int
    """The agent's model-call number in this session: a retry is a new call (its panel starts over)."""
    text: str
    """The new text since the last ``TokensStreamed`` of this call."""
    episode: int = 0


class AgentErrored(BaseEvent):
    """Something went wrong in an agent's turn; the session goes on."""

    kind: Literal["AgentErrored"] = "AgentErrored"
    error: str
    message: str
    episode: int = 0
    fatal: bool = False


class PresenceChanged(BaseEvent):
    kind: Literal["PresenceChanged"] = "PresenceChanged"
    participant: str
    role: str
    status: Presence
    connection: str = ""  # which connection of the participant's (one may join twice); "" from older buses


# fmt: off
Event = Annotated[  # one line per few types: channel/events.py stays under 450 lines
    SessionStarted | DomainEntered | Forked | SeatChanged | SeatPrompted | SeatAnswered | SessionEnded | EpisodeStarted
    | EpisodeEnded | TurnStarted | AgentFinished | ToolCalled | FileChanged | WriteRefused | ShellCommandRan
    | SensitiveRead | ShimTampered | OutsideChanged | MessagePosted | ReviewRequested | ReviewDecided
    | PermissionRequested | PlanUpdated | ToolCallUpdated | NormChanged | SessionPaused | SessionResumed | SpeedChanged
    | CommandRefused | SuiteRan | HarmDetected | TrapFired | VerdictReached | FavorChecked | CIFeedbackSent
    | ModelCalled | TokensStreamed | AgentErrored | PresenceChanged | branch.MergeRequested | branch.MergeApproved
    | branch.Merged | branch.PushRefused | LessonPrompted | RoomChanged | VoteRuleSet | VoteCast | VoteClosed,
    Field(discriminator="kind"),
]
# fmt: on

EVENT_TYPES: tuple[type[BaseEvent], ...] = get_args(get_args(Event)[0])
"""Every event class, in the order of the union (derived from it, never listed twice)."""
