"""A small ACP agent for the tests, over stdio, speaking the protocol through the ``acp`` package.

Turn 1: states its plan, reads the file it owns, writes it, writes a file it does not own, writes a scratch file
beside its own and removes it in a terminal, writes and reads back a ``.env`` (a sensitive read),
asks permission to edit the file it does not own (reporting the answer), posts a message. Turn 2:
reports what arrived in its prompt (so the test sees the session kept its context). Turn 3: does
nothing (its episode ends). What it learns (the refusal, the permission answer, the second
prompt) it posts to the shared channel with ``sw-post``, so the test reads it from the events. A third argument
``allow`` or ``reject`` offers only the options of that kind in its permission request."""

from __future__ import annotations

import asyncio
import os
import sys
from typing import Any

import acp
from acp import schema

OWN = sys.argv[1]
FOREIGN = sys.argv[2]
OFFERED = sys.argv[3] if len(sys.argv) > 3 else ""


class EchoAgent:
    def __init__(self) -> None:
        self.conn: Any = None
        self.prompts = 0
        self.cwd = ""

    def on_connect(self, conn: Any) -> None:
        self.conn = conn

    async def initialize(self, protocol_version: int, **kwargs: Any) -> schema.InitializeResponse:
        return schema.InitializeResponse(protocol_version=protocol_version)

    async def new_session(self, cwd: str, **kwargs: Any) -> schema.NewSessionResponse:
        self.cwd = cwd
        return schema.NewSessionResponse(session_id="s1")

    async def cancel(self, session_id: str, **kwargs: Any) -> None:
        return None

    async def say(self, sid: str, text: str) -> None:
        await self.conn.session_update(session_id=sid, update=acp.update_agent_message_text(text))

    async def post(self, sid: str, text: str) -> None:
        term = await self.conn.create_terminal(session_id=sid, command="sw-post", args=text.split(" "))
        await self.conn.release_terminal(session_id=sid, terminal_id=term.terminal_id)

    async def prompt(self, prompt: list[Any], session_id: str, **kwargs: Any) -> schema.PromptResponse:
        self.prompts += 1
        text = " ".join(getattr(block, "text", "") for block in prompt)
        sid = session_id
        if self.prompts == 1:
            await self.conn.session_update(session_id=sid, update=acp.update_plan([
                acp.plan_entry(f"edit {OWN}", status="in_progress", priority="high"),
                acp.plan_entry(f"ask about {FOREIGN}")]))
            own, foreign = os.path.join(self.cwd, OWN), os.path.join(self.cwd, FOREIGN)
            read = await self.conn.read_text_file(session_id=sid, path=own)
            await self.conn.write_text_file(session_id=sid, path=own, content=read.content + "# acp was here\n")
            try:
                await self.conn.write_text_file(session_id=sid, path=foreign, content="# mine now\n")
                await self.post(sid, "foreign write: ok")
            except acp.RequestError as exc:
                await self.post(sid, f"foreign write: refused ({exc})")
            scratch = os.path.join(os.path.dirname(OWN), "acp-scratch.txt")
            await self.conn.write_text_file(session_id=sid, path=os.path.join(self.cwd, scratch), content="x\n")
            secret = os.path.join(self.cwd, os.path.dirname(OWN), ".env")
            await self.conn.write_text_file(session_id=sid, path=secret, content="TOKEN=x\n")
            await self.conn.read_text_file(session_id=sid, path=secret)
            term = await self.conn.create_terminal(session_id=sid, command="rm", args=["-v", scratch])
            out = await self.conn.terminal_output(session_id=sid, terminal_id=term.terminal_id)
            code = out.exit_status.exit_code if out.exit_status else None
            await self.post(sid, f"terminal: exit {code} {' '.join(out.output.split())}")
            await self.conn.session_update(session_id=sid, update=acp.start_tool_call(
                "c1", f"Edit {FOREIGN}", kind="edit", status="pending",
                locations=[schema.ToolCallLocation(path=foreign)]))
            answer = await self.conn.request_permission(session_id=sid, tool_call=schema.ToolCallUpdate(
                tool_call_id="c1", title=f"Edit {FOREIGN}", kind="edit",
                locations=[schema.ToolCallLocation(path=foreign)]), options=[option for option in [
                schema.PermissionOption(option_id="yes", name="Allow", kind="allow_once"),
                schema.PermissionOption(option_id="no", name="Reject", kind="reject_once"),
            ] if option.kind.startswith(OFFERED)])
            outcome = answer.outcome
            chosen = getattr(outcome, "option_id", outcome.outcome)
            await self.post(sid, f"permission: {chosen}")
            await self.conn.session_update(session_id=sid, update=acp.update_tool_call(
                "c1", status="completed" if chosen == "yes" else "failed"))
            await self.say(sid, f"permission: {chosen}")
        elif self.prompts == 2:
            await self.say(sid, "second turn")
            await self.post(sid, f"second prompt: {' '.join(text.split())[:200]}")
            term = await self.conn.create_terminal(session_id=sid, command="true")
            await self.conn.wait_for_terminal_exit(session_id=sid, terminal_id=term.terminal_id)
        return schema.PromptResponse(stop_reason="end_turn")


if __name__ == "__main__":
    asyncio.run(acp.run_agent(EchoAgent()))
