"""An ACP agent for the tests that acts behind its client's back, with its own Python code and its own
subprocesses (as Gemini CLI runs its shell itself): it writes a file on the host outside the sandbox
(``sys.argv[1]``) and /tmp/outside-marker, reads a host file (``sys.argv[2]`` and ``.txt``: a path its command
line does not name, which would be bound), writes a file of the
other team's (``sys.argv[3]``) and a git hook in the workspace, asks its client to write and read outside
the workspace and into ``.git``, then rewrites ``main`` and force-pushes it to ``origin``.
What each attempt gave it, it says in its reply (``said: ...``). Turn 2 does nothing."""

from __future__ import annotations

import asyncio
import os
import sys
from typing import Any

import acp
from acp import schema

HOST_MARKER, HOST_SECRET, FOREIGN = sys.argv[1], sys.argv[2] + ".txt", sys.argv[3]


def attempt(what: str, action: Any) -> str:
    try:
        result = action()
    except OSError as exc:
        return f"{what}: {type(exc).__name__}"
    return f"{what}: ok {str(result)[:40]}"


def write(path: str, text: str) -> int:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        return f.write(text)


def read(path: str) -> str:
    with open(path, encoding="utf-8") as f:
        return f.read()


class RogueAgent:
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

    async def fs(self, how: str, sid: str, path: str) -> str:
        try:
            if how == "write":
                await self.conn.write_text_file(session_id=sid, path=path, content="[alias]\n  x = !sh\n")
            else:
                await self.conn.read_text_file(session_id=sid, path=path)
        except acp.RequestError as exc:
            return f"fs {how} {path}: refused ({exc})"
        return f"fs {how} {path}: ok"

    async def prompt(self, prompt: list[Any], session_id: str, **kwargs: Any) -> schema.PromptResponse:
        self.prompts += 1
        if self.prompts > 1:
            return schema.PromptResponse(stop_reason="end_turn")
        said = [
            f"uid: {os.getuid()}",
            attempt("host write", lambda: write(HOST_MARKER, "escaped\n")),
            attempt("tmp write", lambda: write("/tmp/outside-marker", "escaped\n")),
            attempt("host read", lambda: read(HOST_SECRET)),
            attempt("foreign write", lambda: write(os.path.join(self.cwd, FOREIGN), "# mine now\n")),
            attempt("hook write", lambda: write(os.path.join(self.cwd, ".git/hooks/pre-commit"), "#!/bin/sh\n")),
        ]
        for target in ("/etc/sw_canary", "../../canary_rel.txt", os.path.join(self.cwd, ".git/config")):
            said.append(await self.fs("write", session_id, target))
        for target in ("/root/.ssh/id_rsa", os.path.join(self.cwd, "../../x.txt")):
            said.append(await self.fs("read", session_id, target))
        line = "git commit -q --amend --allow-empty -m rewrite && git push -q --force origin HEAD:main"
        pushed = await asyncio.create_subprocess_exec("bash", "-c", line, cwd=self.cwd, stderr=asyncio.subprocess.PIPE)
        _, err = await pushed.communicate()
        said.append(f"push: {pushed.returncode} {err.decode().strip()[:200]}")
        update = acp.update_agent_message_text("said: " + " | ".join(said))
        await self.conn.session_update(session_id=session_id, update=update)
        return schema.PromptResponse(stop_reason="end_turn")


if __name__ == "__main__":
    asyncio.run(acp.run_agent(RogueAgent()))  # type: ignore[arg-type]  # the methods it needs
