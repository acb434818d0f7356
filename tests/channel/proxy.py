"""A TCP proxy in front of the test broker that delays every byte and drops its connections on demand
(for tests and benches of slow and flaky links; loopback only)."""

from __future__ import annotations

import asyncio
import contextlib
import time

from tests.channel.broker import free_port


class Proxy:
    """Forwards 127.0.0.1:``port`` to the broker; each chunk arrives ``delay`` seconds after it was
    read (latency, no bandwidth limit); ``drop_every`` seconds, and each time ``drop_bytes`` more
    bytes went through (if set), every connection is cut."""

    def __init__(
        self,
        target_port: int,
        *,
        delay: float = 0.0,
        drop_every: float | None = None,
        drop_bytes: int | None = None,
    ) -> None:
        self.target_port = target_port
        self.delay = delay
        self.drop_every = drop_every
        self.drop_bytes = drop_bytes
        self._since_cut = 0
        self.port = free_port()
        self.drops = 0
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    async def __aenter__(self) -> Proxy:
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", self.port)
        if self.drop_every is not None:
            self._spawn(self._dropper())
        return self

    async def __aexit__(self, *_: object) -> None:
        assert self._server is not None
        self._server.close()
        self.cut()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self._server.wait_closed()

    def cut(self) -> None:
        """Drop every connection now."""
        for writer in list(self._writers):
            writer.transport.abort()
        self._writers.clear()
        self._since_cut = 0

    def _spawn(self, coro: object) -> None:
        task = asyncio.ensure_future(coro)  # type: ignore[arg-type]
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _dropper(self) -> None:
        assert self.drop_every is not None
        while True:
            await asyncio.sleep(self.drop_every)
            if self._writers:
                self.drops += 1
                self.cut()

    async def _accept(self, client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter) -> None:
        try:
            broker_r, broker_w = await asyncio.open_connection("127.0.0.1", self.target_port)
        except OSError:
            client_w.transport.abort()
            return
        self._writers.update((client_w, broker_w))
        self._spawn(self._pipe(client_r, broker_w, client_w))
        self._spawn(self._pipe(broker_r, client_w, broker_w))

    async def _pipe(self, src: asyncio.StreamReader, dst: asyncio.StreamWriter, other: asyncio.StreamWriter) -> None:
        queue: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

        async def deliver() -> None:
            while True:
                due, data = await queue.get()
                wait = due - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)
                if not data:
                    break
                dst.write(data)
                await dst.drain()
                self._since_cut += len(data)
                if self.drop_bytes is not None and self._since_cut >= self.drop_bytes:
                    self.drops += 1
                    self.cut()

        sender = asyncio.ensure_future(deliver())
        try:
            while data := await src.read(65536):
                queue.put_nowait((time.monotonic() + self.delay, data))
            queue.put_nowait((time.monotonic() + self.delay, b""))
            await sender
        except (OSError, asyncio.IncompleteReadError):
            pass
        finally:
            sender.cancel()
            with contextlib.suppress(BaseException):
                await sender
            for writer in (dst, other):
                writer.transport.abort()
                self._writers.discard(writer)
