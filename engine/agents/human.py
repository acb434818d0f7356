"""A person in an agent's seat (``--owner human`` / ``--requester human``).

The person acts through the same toolbox as every agent kind, so the turn budget, the norms, the
ownership guard and the judge apply to them exactly as to an agent. Their tool calls arrive as
``SeatCall`` commands on the bus (from the TUI in this process, or from ``watch --seat`` over MQTT);
each is answered with a ``SeatAnswered`` event carrying the whole result.

A turn starts with ``SeatPrompted``: what an LLM agent in that seat would be told now (the system
prompt and ticket on the first turn, then what arrived since the last turn), from the same prompt
files (engine/llm/prompts/). Reading is free: ``list_files`` and ``read_file`` keep the turn open;
any other tool call ends it (as an LLM agent's reply does), and so does ``pass``; a call to a tool that
does not exist is answered with an error and leaves the turn open.
"""

from __future__ import annotations

import asyncio

from channel.commands import SeatCall
from channel.emitter import Emit
from channel.events import NormChanged, SeatAnswered, SeatPrompted
from channel.tasks import cancel_and_wait
from channel.vocab import AgentRole
from channel.vocab.norms import Norms
from channel.vocab.tools import TOOL_NAMES
from engine.agents.base import EpisodeBrief, TurnContext
from engine.llm.prompting import norm_change_note, render_inbox, render_turn, system_prompt, ticket_message

FREE_TOOLS = frozenset({"list_files", "read_file"})
"""Tools that do not end a person's turn: looking is free, acting takes the turn."""
PASS = "pass"
"""The call that ends a turn without acting."""


class HumanAgent:
    """An agent seat played by a person; ``offer`` hands it their calls (the session routes them)."""

    kind = "human"

    def __init__(self, agent_id: str, role: AgentRole, *, emit: Emit, stopped: asyncio.Event) -> None:
        self.id = agent_id
        self.role = role
        self.emit = emit
        self.stopped = stopped
        """Set when the session is told to stop: a person's turn then ends at once."""
        self.trajectory = 0
        self.brief: EpisodeBrief | None = None
        self._norms: Norms | None = None
        self._calls: asyncio.Queue[SeatCall] = asyncio.Queue()

    def offer(self, call: SeatCall) -> None:
        """A call from the person; taken at their turn (queued until then)."""
        self._calls.put_nowait(call)

    async def start_episode(self, brief: EpisodeBrief) -> None:
        self.brief = brief
        self._norms = None
        while not self._calls.empty():  # calls meant for the episode before
            self._calls.get_nowait()

    async def end_episode(self) -> None:
        self.brief = None

    def prompt(self, ctx: TurnContext) -> str:
        """What an LLM agent in this seat would be told at the start of this turn."""
        assert self.brief is not None
        inbox = render_inbox([e for e in ctx.inbox if not isinstance(e, NormChanged)], self.id)
        if self._norms is None:
            head = system_prompt(self.brief, ctx.norms) + "\n\n" + ticket_message(self.brief, ctx.norms)
            return head + "\n\n" + render_turn(ctx.turn, ctx.budget_left, inbox)
        note = norm_change_note(self._norms, ctx.norms, self.brief)
        return render_turn(ctx.turn, ctx.budget_left, inbox, norm_note=note)

    async def take_turn(self, ctx: TurnContext) -> None:
        assert self.brief is not None
        text = self.prompt(ctx)
        self._norms = ctx.norms
        await self.emit(
            SeatPrompted(
                actor=self.id, episode=self.brief.episode, turn=ctx.turn, budget_left=ctx.budget_left, text=text
            )
        )
        while True:
            call = await self._next()
            if call is None:
                return
            if call.tool == PASS:
                await self.emit(
                    SeatAnswered(actor=self.id, call=call.call, tool=PASS, result="turn passed", turn_over=True)
                )
                return
            result = await ctx.tools.call(call.tool, call.model_dump(mode="json")["args"])  # as sent
            over = call.tool in TOOL_NAMES and call.tool not in FREE_TOOLS  # a misspelt tool costs nothing
            await self.emit(
                SeatAnswered(
                    actor=self.id,
                    call=call.call,
                    tool=call.tool,
                    ok=not result.startswith("error:"),
                    result=result,
                    turn_over=over,
                )
            )
            if over:
                return

    async def _next(self) -> SeatCall | None:
        """The person's next call, or None when the session stops first."""
        if self.stopped.is_set():
            return None
        get = asyncio.ensure_future(self._calls.get())
        stop = asyncio.ensure_future(self.stopped.wait())
        try:
            done, _ = await asyncio.wait({get, stop}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            await cancel_and_wait(get, stop)
        return get.result() if get in done else None
