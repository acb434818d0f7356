"""A misbehaving ACP agent for the tests (standard library only: raw JSON-RPC on stdio), one fault per mode.

``silent`` never answers; ``noanswer`` answers initialize and session/new, never session/prompt; ``garbage``
prints a banner and never answers; ``noise`` prints a line that is not JSON in its turn, ``unknown`` sends a
session/update of a kind ACP may add one day (both then end their turn); ``exit`` exits with 3 at once;
``initerror`` answers initialize with an error; ``badversion`` answers it with protocol version 999,
``mcpversion`` with MCP's ``"2025-06-18"`` and ``bigversion`` with 70000 (both outside ACP's schema: a uint16);
``badsession`` answers session/new without a ``sessionId``;
``acthang`` writes ``hang.txt`` in its turn (an ``fs/write_text_file``), then never answers the prompt;
``bogusstop`` ends its turn with a stop reason ACP does not have; ``terminals`` opens terminals in the
session's cwd, in a folder of it and in /etc, then ends its turn; ``wrongsid`` writes a file for a session
that is not its own; ``nonobject`` prints lines of JSON that are not objects (a list, a number, a string,
``null``) in its turn, then writes ``after.txt`` (an ``fs/write_text_file``) and ends its turn; ``closeout``
writes ``closed.txt`` in its turn, then closes its stdout and lives on (a minute) without answering;
``exitterm`` opens a terminal ``sleep 20; touch late.txt`` in its turn and exits (0) a second later, while it runs;
``hangterm`` opens the same terminal and waits for it (past its ``--turn-timeout``);
``segv`` writes ``crashed.txt`` in its turn, then is killed by SIGSEGV.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time

MODE = sys.argv[1]


def send(message: dict[str, object]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main() -> None:
    if MODE == "exit":
        sys.exit(3)
    if MODE == "garbage":
        print("Welcome to SuperAgent v2! Type /help for help.", flush=True)
        time.sleep(60)
    cwd, prompt, waiting = ".", None, set()
    for line in sys.stdin:
        message = json.loads(line)
        method, rid = message.get("method"), message.get("id")
        if MODE == "silent" or rid is None:
            continue
        if method is None and rid in waiting:  # an answer to one of its own requests
            waiting.discard(rid)
            if not waiting:
                send({"jsonrpc": "2.0", "id": prompt, "result": {"stopReason": "end_turn"}})
            continue
        if method == "initialize":
            if MODE == "initerror":
                send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32603, "message": "no GPU found"}})
            else:
                versions = {"badversion": 999, "mcpversion": "2025-06-18", "bigversion": 70000}
                send({"jsonrpc": "2.0", "id": rid, "result": {"protocolVersion": versions.get(MODE, 1)}})
        elif method == "session/new" and MODE == "badsession":
            send({"jsonrpc": "2.0", "id": rid, "result": {"session": "s1"}})
        elif method == "session/new":
            cwd = message["params"]["cwd"]
            send({"jsonrpc": "2.0", "id": rid, "result": {"sessionId": "s1"}})
        elif method == "session/prompt" and MODE == "terminals" and prompt is None:
            prompt, waiting = rid, {101, 102, 103}
            for n, (where, name) in enumerate([(cwd, "root.txt"), (f"{cwd}/services", "sub.txt"), ("/etc", "x")]):
                params = {"sessionId": "s1", "command": "touch", "args": [name], "cwd": where}
                send({"jsonrpc": "2.0", "id": 101 + n, "method": "terminal/create", "params": params})
        elif method == "session/prompt" and MODE == "wrongsid" and prompt is None:
            prompt, waiting = rid, {104}
            params = {"sessionId": "someone-else", "path": f"{cwd}/wrongsid.txt", "content": "x\n"}
            send({"jsonrpc": "2.0", "id": 104, "method": "fs/write_text_file", "params": params})
        elif method == "session/prompt" and MODE == "nonobject" and prompt is None:
            prompt, waiting = rid, {105}
            for line in ("[1, 2, 3]", "42", '"hello"', "null"):
                print(line, flush=True)
            params = {"sessionId": "s1", "path": f"{cwd}/after.txt", "content": "still here\n"}
            send({"jsonrpc": "2.0", "id": 105, "method": "fs/write_text_file", "params": params})
        elif method == "session/prompt" and MODE in ("terminals", "wrongsid", "nonobject"):
            send({"jsonrpc": "2.0", "id": rid, "result": {"stopReason": "end_turn"}})  # nothing more
        elif method == "session/prompt" and MODE == "closeout" and prompt is None:
            prompt = rid  # its answer is not awaited: it closes its stdout instead
            params = {"sessionId": "s1", "path": f"{cwd}/closed.txt", "content": "then closed stdout\n"}
            send({"jsonrpc": "2.0", "id": 106, "method": "fs/write_text_file", "params": params})
        elif method is None and MODE == "closeout" and rid == 106:
            os.close(1)
            time.sleep(60)
        elif method == "session/prompt" and MODE in ("exitterm", "hangterm"):
            params = {"sessionId": "s1", "command": "sleep 20; touch late.txt"}
            send({"jsonrpc": "2.0", "id": 108, "method": "terminal/create", "params": params})
            if MODE == "exitterm":
                time.sleep(1)
                os._exit(0)
        elif method == "session/prompt" and MODE == "segv":
            params = {"sessionId": "s1", "path": f"{cwd}/crashed.txt", "content": "then crashed\n"}
            send({"jsonrpc": "2.0", "id": 107, "method": "fs/write_text_file", "params": params})
        elif method is None and MODE == "segv" and rid == 107:
            os.kill(os.getpid(), signal.SIGSEGV)
        elif method == "session/prompt" and MODE == "acthang":
            params = {"sessionId": "s1", "path": f"{cwd}/hang.txt", "content": "acted, then hung\n"}
            send({"jsonrpc": "2.0", "id": 100, "method": "fs/write_text_file", "params": params})
        elif method == "session/prompt" and MODE != "noanswer":
            if MODE == "noise":
                print("DEBUG: not JSON-RPC at all", flush=True)
            if MODE == "unknown":
                update = {"sessionUpdate": "usage_update_from_the_future", "tokens": 5}
                send({"jsonrpc": "2.0", "method": "session/update", "params": {"sessionId": "s1", "update": update}})
            stop = "gave_up_for_lunch" if MODE == "bogusstop" else "end_turn"
            send({"jsonrpc": "2.0", "id": rid, "result": {"stopReason": stop}})


if __name__ == "__main__":
    main()
