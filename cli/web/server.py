"""The web table's server: Starlette routes on uvicorn. The page (static/) asks for its
link's view and long-polls for changes; every action is a POST of a small JSON object naming
the move number it was made at. Each request is checked before it reaches the table: the link
must be one of a table's, the body JSON of the expected shape and size; anything else is a
4xx with a sentence, never a traceback.

Why Starlette: one small, well-kept ASGI framework (routing, requests, static files, a test
client) without a template engine or ORM we would not use; uvicorn serves it. Bots and hints
run in worker threads (anyio), so a thinking bot never stalls another table's page.
"""
from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import secrets
import threading
import time
from pathlib import Path

import anyio
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ...dsl.errors import BoardwrightError
from .table import Refused, WebTable

STATIC = Path(__file__).parent / "static"
MAX_ACTION_BYTES = 4096             # an action is a few small fields
MAX_SAVE_BYTES = 8 * 1024 * 1024    # a loaded save
POLL_SECONDS = 20                   # a long poll answers at the latest after this
HEADERS = {"Cache-Control": "no-store", "Referrer-Policy": "no-referrer", "X-Content-Type-Options": "nosniff",
           "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'"}
ACTIONS = {"choose": {"move", "option"}, "undo": {"move"}, "redo": {"move"}, "hint": {"move"}}


class Tables:
    """The tables a server holds, found by any of their links' tokens; each table's changes
    wake its long polls and its bots."""

    def __init__(self, tables: list[WebTable]):
        self.tables = list(tables)
        self.events: dict[int, asyncio.Event] = {}
        self.bot_tasks: dict[int, asyncio.Task] = {}
        self.failures: dict[int, str] = {}
        self.loop = None
        self.closing = False

    def find(self, token) -> WebTable:
        if isinstance(token, str) and 16 <= len(token) <= 64:
            for table in self.tables:
                if any(secrets.compare_digest(token.encode(), known.encode()) for known in table.tokens.values()):
                    return table
        raise Refused(404, "no table at this link: ask for the link again")

    def start(self) -> None:
        """On the server's loop: listen to every table and let its bots move."""
        self.loop = asyncio.get_running_loop()
        for table in self.tables:
            self.events[id(table)] = asyncio.Event()
            table.listeners.append(lambda t=table: self.loop.call_soon_threadsafe(self.changed, t))
            self.wake_bots(table)

    def changed(self, table: WebTable) -> None:
        event = self.events[id(table)]
        event.set()
        self.events[id(table)] = asyncio.Event()
        self.wake_bots(table)

    def wake_bots(self, table: WebTable) -> None:
        task = self.bot_tasks.get(id(table))
        if table.bot_to_move() and (task is None or task.done()):
            self.bot_tasks[id(table)] = asyncio.create_task(self.run_bots(table))

    async def run_bots(self, table: WebTable) -> None:
        try:
            # Asked again on the loop: a human move that came while the last bot_move was
            # answering found this task still running and woke no other.
            while await anyio.to_thread.run_sync(table.bot_move) or table.bot_to_move():
                pass
        except BoardwrightError as exc:         # a rule error in the game: shown on the page
            self.failures[id(table)] = exc.format() if hasattr(exc, "format") else str(exc)
            self.changed(table)

    def release(self) -> None:
        """From any thread: answer every long poll now and every later one at once (the server
        is stopping, and need not wait for them)."""
        def wake():
            self.closing = True
            for event in self.events.values():
                event.set()
        if self.loop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(wake)

    async def wait(self, table: WebTable, after: int) -> None:
        if table.version != after or self.closing:
            return
        try:
            await asyncio.wait_for(self.events[id(table)].wait(), POLL_SECONDS)
        except asyncio.TimeoutError:
            pass


def build_app(tables: list[WebTable], allowed_hosts=None) -> Starlette:
    """The ASGI app for these tables. `allowed_hosts` (names in the Host header) guards a
    server on the loopback against DNS rebinding; None allows any (a server open to a LAN)."""
    held = Tables(tables)

    def refused(exc: Refused) -> JSONResponse:
        return JSONResponse({"error": exc.message}, exc.status, headers=HEADERS)

    async def page(request: Request) -> Response:
        try:
            held.find(request.path_params["token"])
        except Refused:
            return Response("No table at this link: ask the host for the link again.\n", 404,
                            media_type="text/plain", headers=HEADERS)
        return FileResponse(STATIC / "index.html", headers=HEADERS)

    async def view(request: Request) -> Response:
        token = request.path_params["token"]
        try:
            table = held.find(token)
            after = request.query_params.get("after")
            if after is not None:
                if not (after.isascii() and after.isdigit() and len(after) < 12):
                    raise Refused(400, "'after' must be a version number")
                await held.wait(table, int(after))
            data = await anyio.to_thread.run_sync(table.view, token)
        except Refused as exc:
            return refused(exc)
        failure = held.failures.get(id(table))
        if failure:
            data["failure"] = failure
        return JSONResponse(data, headers=HEADERS)

    async def past(request: Request) -> Response:
        token = request.path_params["token"]
        try:
            table = held.find(token)
            step, show = (_whole(request.query_params.get(k), k) for k in ("step", "show"))
            data = await anyio.to_thread.run_sync(table.past, token, step, show)
        except Refused as exc:
            return refused(exc)
        return JSONResponse(data, headers=HEADERS)

    async def action(request: Request) -> Response:
        token, name = request.path_params["token"], request.path_params["action"]
        try:
            table = held.find(token)
            if name not in ACTIONS:
                raise Refused(404, f"no action '{name[:40]}'; actions: {', '.join(ACTIONS)}")
            body = await _json_body(request, MAX_ACTION_BYTES)
            if not isinstance(body, dict):
                raise Refused(400, "the request body must be a JSON object")
            unknown = set(body) - ACTIONS[name]
            if unknown or "move" not in body:
                raise Refused(400, f"{name} takes {', '.join(sorted(ACTIONS[name]))}"
                              + (f"; unknown: {', '.join(sorted(map(str, unknown)))[:100]}" if unknown else ""))
            if name == "choose":
                await anyio.to_thread.run_sync(table.choose, token, body["move"], body.get("option"))
            elif name == "undo":
                await anyio.to_thread.run_sync(table.undo, token, body["move"])
            elif name == "redo":
                await anyio.to_thread.run_sync(table.redo_move, token, body["move"])
            else:
                text = await anyio.to_thread.run_sync(table.hint, token, body["move"])
                return JSONResponse({"hint": text}, headers=HEADERS)
        except Refused as exc:
            return refused(exc)
        except BoardwrightError as exc:     # the rules failed on this move: a bug of the rule file
            return JSONResponse({"error": f"the rules failed: {exc}"}, 422, headers=HEADERS)
        return JSONResponse({"ok": True, "version": table.version}, headers=HEADERS)

    async def save(request: Request) -> Response:
        token = request.path_params["token"]
        try:
            text = await anyio.to_thread.run_sync(held.find(token).save_text, token)
        except Refused as exc:
            return refused(exc)
        return Response(text, media_type="application/json",
                        headers={**HEADERS, "Content-Disposition": 'attachment; filename="boardwright-save.json"'})

    async def load(request: Request) -> Response:
        token = request.path_params["token"]
        try:
            table = held.find(token)
            raw = await _body(request, MAX_SAVE_BYTES)
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise Refused(400, "the file is not a saved game (not UTF-8 text)")
            await anyio.to_thread.run_sync(table.load, token, text)
        except Refused as exc:
            return refused(exc)
        return JSONResponse({"ok": True, "version": table.version}, headers=HEADERS)

    async def not_found(request: Request, exc) -> Response:
        status = getattr(exc, "status_code", 500)
        text = {404: "not found", 405: "method not allowed"}.get(status, "the server could not answer")
        return JSONResponse({"error": text}, status, headers=HEADERS)

    routes = [Route("/t/{token}", page), Route("/api/{token}/view", view), Route("/api/{token}/past", past),
              Route("/api/{token}/save", save), Route("/api/{token}/load", load, methods=["POST"]),
              Route("/api/{token}/{action}", action, methods=["POST"]),
              Mount("/static", StaticFiles(directory=STATIC), name="static")]
    middleware = [Middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts)] if allowed_hosts else []
    @contextlib.asynccontextmanager
    async def lifespan(app):
        held.start()
        yield
        for task in held.bot_tasks.values():
            task.cancel()

    app = Starlette(routes=routes, middleware=middleware, lifespan=lifespan,
                    exception_handlers={404: not_found, 405: not_found, 500: not_found})
    app.state.tables = held
    return app


async def _body(request: Request, limit: int) -> bytes:
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise Refused(413, f"the request is larger than {limit:,} bytes")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise Refused(413, f"the request is larger than {limit:,} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


async def _json_body(request: Request, limit: int):
    raw = await _body(request, limit)
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):
        raise Refused(400, "the request body is not JSON")


def _whole(text, name: str):
    if text is None:
        return None
    if not (text.isascii() and text.isdigit() and len(text) < 12):
        raise Refused(400, f"'{name}' must be a whole number")
    return int(text)


def loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


LOCAL_HOSTS = ["127.0.0.1", "localhost", "[::1]", "::1"]    # Host headers a loopback server answers


def table_server(app, host: str, port: int):
    """A uvicorn server for the app whose stop (Ctrl-C, or `should_exit`) first answers the
    waiting long polls, so that it stops at once."""
    import uvicorn

    class TableServer(uvicorn.Server):
        def handle_exit(self, sig, frame) -> None:
            app.state.tables.release()
            super().handle_exit(sig, frame)

    return TableServer(uvicorn.Config(app, host=host, port=port, log_level="warning", access_log=False,
                                      lifespan="on", timeout_graceful_shutdown=2))


class BackgroundServer:
    """uvicorn serving an app in a thread of this process (tests, the load benchmark):
    `with BackgroundServer(app) as server:` then `server.url`; port 0 takes a free port."""

    def __init__(self, app, host: str = "127.0.0.1", port: int = 0):
        self.app = app
        self.server = table_server(app, host, port)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.host = host

    def __enter__(self) -> "BackgroundServer":
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the web table's server did not start")
            time.sleep(0.02)
        port = self.server.servers[0].sockets[0].getsockname()[1]
        self.url = f"http://{self.host}:{port}"
        return self

    def __exit__(self, *exc) -> None:
        self.app.state.tables.release()
        self.server.should_exit = True
        self.thread.join(10)
