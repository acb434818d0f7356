"""A real browser check of ``scopewatch web``: headless Chromium renders the served demo to a PNG.

    /work/venv/bin/python tests/tui/web_check.py [--out /tmp/web_check.png] [--seconds 6]

textual-serve draws the terminal in canvases, so the check drives Chromium over its DevTools
protocol (aiohttp's websocket client, already installed with textual-serve):

1. start ``python -m tui.cli web --port P`` (its own process group) and wait for its HTTP page;
2. start Chromium headless on a fresh profile with a DevTools port; a hook installed before the page
   loads copies every binary websocket frame (the app's terminal output) into ``window.__scopewatch``;
3. open the page, click "Start" if textual-serve shows a start page, wait until the terminal has
   drawn the app (the page's ``-first-byte`` class and the app's own words in the output stream);
4. focus the terminal, let the demo run, screenshot; press ``t`` (next theme) and check that the
   app answered (new output naming the theme);
5. end Chromium and the server's process group (the app processes textual-serve spawned with it).

Exit 0 and the PNG path on success; 1 with the reason on failure. ``test_web.py`` runs it under pytest
when Chromium is installed.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("SCOPEWATCH_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-quic",
    "--no-first-run",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
    "--window-size=1600,1000",
    # No network but loopback: whatever the page asks of another host fails (a classroom offline).
    "--proxy-server=http://127.0.0.1:9",  # (and the proxy bypass list: 127.0.0.1, localhost, the page's host)
)
APP_WORDS = ("Workspace", "Scoreboard", "Norms")
"""Words only the scopewatch screen draws (not textual-serve's start page)."""

HOOK = """
window.__scopewatch = {text: "", frames: 0};
// The output with control sequences removed (Textual redraws only changed cells, so a word can be
// split by cursor moves); text drawn left to right on one line reads whole again.
window.__scopewatch.plain = (from) =>
  window.__scopewatch.text.slice(from || 0).replace(/\x1b\\[[0-9;?<>]*[A-Za-z]/g, "");
const NativeWebSocket = window.WebSocket;
window.WebSocket = function (...args) {
  const ws = new NativeWebSocket(...args);
  ws.addEventListener("message", (e) => {
    if (typeof e.data === "string") return;
    const bytes = e.data instanceof ArrayBuffer ? new Uint8Array(e.data) : null;
    if (bytes === null) return;
    window.__scopewatch.frames += 1;
    window.__scopewatch.text += new TextDecoder().decode(bytes);
    if (window.__scopewatch.text.length > 4000000) {
      window.__scopewatch.text = window.__scopewatch.text.slice(-2000000);
    }
  });
  return ws;
};
window.WebSocket.prototype = NativeWebSocket.prototype;
Object.assign(window.WebSocket, NativeWebSocket);
"""


class CheckFailed(Exception):
    pass


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class DevTools:
    """The smallest DevTools client: numbered calls over one page's websocket; events ignored."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.next_id = 0
        self.waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for msg in self.ws:
            if msg.type != aiohttp.WSMsgType.TEXT:
                continue
            data = json.loads(msg.data)
            future = self.waiting.pop(data.get("id", -1), None)
            if future is not None and not future.done():
                future.set_result(data)

    async def call(self, method: str, **params: Any) -> dict[str, Any]:
        self.next_id += 1
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.waiting[self.next_id] = future
        await self.ws.send_str(json.dumps({"id": self.next_id, "method": method, "params": params}))
        data = await asyncio.wait_for(future, 30)
        if "error" in data:
            raise CheckFailed(f"DevTools {method}: {data['error']}")
        return dict(data.get("result", {}))

    async def js(self, expression: str) -> Any:
        result = await self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            raise CheckFailed(f"JavaScript error in {expression[:80]!r}: {result['exceptionDetails'].get('text')}")
        return result.get("result", {}).get("value")

    async def painted(self) -> None:
        """Until the page has drawn two animation frames: what the terminal received is on its canvas."""
        frames = "new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))"
        await self.call("Runtime.evaluate", expression=frames, awaitPromise=True, returnByValue=True)

    async def close(self) -> None:
        self.reader.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.reader
        await self.ws.close()


async def wait_for(predicate: Any, limit: float, what: str, interval: float = 0.25) -> Any:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        value = await predicate()
        if value:
            return value
        await asyncio.sleep(interval)
    raise CheckFailed(f"timed out after {limit:g} s waiting for {what}")


async def http_ok(session: aiohttp.ClientSession, url: str) -> bool:
    try:
        async with session.get(url, timeout=aiohttp.ClientTimeout(total=2)) as r:
            return r.status == 200
    except (aiohttp.ClientError, TimeoutError, OSError):
        return False


async def press(tools: DevTools, key: str) -> None:
    for kind in ("keyDown", "keyUp"):
        params: dict[str, Any] = {
            "type": kind,
            "key": key,
            "code": f"Key{key.upper()}",
            "windowsVirtualKeyCode": ord(key.upper()),
        }
        if kind == "keyDown":
            params["text"] = key
        await tools.call("Input.dispatchKeyEvent", **params)


@contextlib.contextmanager
def served(log: Any, listen: str = "127.0.0.1", visit: str = "127.0.0.1") -> Iterator[tuple[int, int, dict[str, Any]]]:
    """``scopewatch web --host LISTEN`` and Chromium (reaching loopback and ``visit`` only) running, each
    in its own process group; both groups ended on exit (with the app processes textual-serve
    spawned). Yields the two ports and a facts dict."""
    serve_port, debug_port = free_port(), free_port()
    profile = tempfile.mkdtemp(prefix="scopewatch-chromium-")
    server = subprocess.Popen(
        [sys.executable, "-m", "tui.cli", "web", "--host", listen, "--port", str(serve_port)],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=log,
        start_new_session=True,
    )
    browser = subprocess.Popen(
        [
            CHROMIUM,
            *CHROMIUM_FLAGS,
            f"--proxy-bypass-list=127.0.0.1;localhost;{visit}",
            f"--user-data-dir={profile}",
            f"--remote-debugging-port={debug_port}",
            "about:blank",
        ],
        stdout=subprocess.DEVNULL,
        stderr=log,
        start_new_session=True,
    )
    facts: dict[str, Any] = {"serve_port": serve_port, "debug_port": debug_port}
    try:
        yield serve_port, debug_port, facts
    finally:
        for proc in (browser, server):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in (browser, server):
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(10)
        # Children (the app processes, Chromium's helpers) exit just after their leaders: give them
        # a few seconds, then report any still there (and end them).
        leftover: list[int] = []
        for _ in range(40):
            leftover = _group_members(server.pid) + _group_members(browser.pid)
            if not leftover:
                break
            time.sleep(0.25)
        for proc in (browser, server):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
        facts["leftover_processes"] = leftover
        shutil.rmtree(profile, ignore_errors=True)


async def drive(
    serve_port: int, debug_port: int, seconds: float, facts: dict[str, Any], visit: str = "127.0.0.1"
) -> bytes:
    """Open the served page (on ``visit``) in Chromium, wait for the app, press a key; returns the PNG screenshot."""
    async with aiohttp.ClientSession() as session:
        page_url = f"http://{visit}:{serve_port}/"
        facts["visit"] = visit
        await wait_for(lambda: http_ok(session, page_url), 30, f"textual-serve on {page_url}")
        await wait_for(
            lambda: http_ok(session, f"http://127.0.0.1:{debug_port}/json/version"), 30, "Chromium's DevTools port"
        )
        async with session.get(f"http://127.0.0.1:{debug_port}/json/list") as r:
            targets = await r.json()
        target = next(t for t in targets if t.get("type") == "page")
        ws = await session.ws_connect(target["webSocketDebuggerUrl"], max_msg_size=0)
        tools = DevTools(ws)
        try:
            return await _steps(tools, page_url, seconds, facts)
        except CheckFailed as exc:
            # Keep what the browser showed and the end of the app's output, to see why.
            shot = await tools.call("Page.captureScreenshot", format="png")
            facts["failed_png"] = base64.b64decode(shot["data"])
            tail = await tools.js("window.__scopewatch ? window.__scopewatch.plain().slice(-1500) : ''")
            raise CheckFailed(f"{exc}\n--- end of the app's output ---\n{tail}") from None
        finally:
            await tools.close()


async def _steps(tools: DevTools, page_url: str, seconds: float, facts: dict[str, Any]) -> bytes:
    await tools.call("Page.enable")
    await tools.call("Runtime.enable")
    await tools.call("Page.addScriptToEvaluateOnNewDocument", source=HOOK)
    await tools.call("Page.navigate", url=page_url)
    await wait_for(lambda: tools.js("document.readyState === 'complete'"), 30, "the page to load")
    # A start page (textual-serve shows one with ?delay): click through it.
    start_visible = await tools.js(
        "(() => { const b = document.querySelector('#start');"
        " return !!b && getComputedStyle(b).display !== 'none'; })()"
    )
    facts["start_page"] = bool(start_visible)
    if start_visible:
        await tools.js("document.querySelector('#start').click()")
        await wait_for(lambda: tools.js("document.readyState === 'complete'"), 30, "the app page")
    await wait_for(
        lambda: tools.js("document.body.classList.contains('-first-byte')"), 60, "the terminal's first bytes"
    )
    words = json.dumps(list(APP_WORDS))
    await wait_for(
        lambda: tools.js(
            f"(() => {{ const t = window.__scopewatch.plain(); return {words}.every(w => t.includes(w)); }})()"
        ),
        60,
        f"the app's screen ({', '.join(APP_WORDS)}) in the terminal output",
    )
    # Focus the terminal (xterm's hidden textarea takes the keys), let the demo run.
    await tools.js("document.querySelector('.xterm-helper-textarea').focus()")
    facts["focused"] = await tools.js(
        "document.activeElement && document.activeElement.classList.contains('xterm-helper-textarea')"
    )
    await asyncio.sleep(seconds)
    before = await tools.js("window.__scopewatch.text.length")
    await press(tools, "t")
    await wait_for(
        lambda: tools.js(f"window.__scopewatch.plain({before}).includes('theme: scopewatch-light')"),
        20,
        "the app to answer the 't' key (a 'theme: scopewatch-light' toast)",
    )
    facts["key_answered"] = True
    await tools.painted()  # the answer, received, drawn before the screenshot
    facts["terminal"] = await tools.js(
        "(() => { const r = document.querySelector('.xterm-screen').getBoundingClientRect();"
        " return [Math.round(r.width), Math.round(r.height)]; })()"
    )
    facts["canvases"] = await tools.js("document.querySelectorAll('.xterm canvas').length")
    facts["frames"] = await tools.js("window.__scopewatch.frames")
    facts["episode_seen"] = await tools.js("window.__scopewatch.plain().includes('episode')")
    # What the page loaded and what it names: nothing from a host other than the server.
    facts["resources"] = await tools.js("performance.getEntriesByType('resource').map(e => e.name)")
    facts["external"] = await tools.js(
        "[...document.querySelectorAll('[src],[href]')].map(e => e.src || e.href)"
        ".concat(performance.getEntriesByType('resource').map(e => e.name))"
        ".filter(u => u && !u.startsWith('http://{host}:{port}') && !u.startsWith('ws://{host}:{port}'))".replace(
            "{port}", str(facts["serve_port"])
        ).replace("{host}", facts["visit"])
    )
    shot = await tools.call("Page.captureScreenshot", format="png")
    data = base64.b64decode(shot["data"])
    facts["png_bytes"] = len(data)
    return data


def check(
    out: Path, seconds: float, log: Any, *, listen: str = "127.0.0.1", visit: str = "127.0.0.1"
) -> dict[str, Any]:
    """The whole check (``web --host LISTEN``, the page opened on ``visit``); writes the screenshot to
    ``out`` (``<out>_failed.png`` on failure)."""
    with served(log, listen, visit) as (serve_port, debug_port, facts):
        try:
            out.write_bytes(asyncio.run(drive(serve_port, debug_port, seconds, facts, visit)))
        finally:
            if "failed_png" in facts:
                out.with_name(out.stem + "_failed.png").write_bytes(facts.pop("failed_png"))
    return facts


def _group_members(pgid: int) -> list[int]:
    """Processes still in a process group (the app processes textual-serve started)."""
    members = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[2]) == pgid and fields[0] != "Z":
            members.append(int(entry.name))
    return members


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=Path("/tmp/web_check.png"))
    parser.add_argument("--seconds", type=float, default=6.0, help="let the demo run this long before the shot")
    args = parser.parse_args(argv)
    if not Path(CHROMIUM).exists():
        print(f"web_check: no Chromium at {CHROMIUM} (set SCOPEWATCH_CHROMIUM)", file=sys.stderr)
        return 1
    with tempfile.TemporaryFile("w+") as log:
        try:
            facts = check(args.out, args.seconds, log)
        except CheckFailed as exc:
            log.seek(0)
            tail = log.read()[-2000:]
            print(f"web_check: {exc}\n--- server/browser stderr (tail) ---\n{tail}", file=sys.stderr)
            return 1
    print(json.dumps(facts))
    if facts["leftover_processes"]:
        print(f"web_check: processes left running: {facts['leftover_processes']}", file=sys.stderr)
        return 1
    print(f"web_check: screenshot of the running app in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
