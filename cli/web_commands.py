"""`boardwright serve`: the web table (cli/web/). Its arguments, the checks before it starts,
the links it prints, and the server run until Ctrl-C."""
from __future__ import annotations

import argparse
import os
import re
import socket
import sys
from pathlib import Path

from ..dsl.errors import UsageError
from ..interpreter.bots.registry import BOTS
from ..interpreter.compile.load import load_game
from .options import GAME_HELP, positive_int, seed_option, variant_option
from .play import parse_settings

DEFAULT_PORT = 8765
LAN_HOST = "0.0.0.0"


def add_serve(sub) -> None:
    p = sub.add_parser("serve", help="a web table in the browser: hot-seat, against bots, or a link per seat")
    p.add_argument("game", metavar="GAME", help=GAME_HELP)
    variant_option(p)
    p.add_argument("--players", type=positive_int, metavar="N", help="the player count (default: the game's minimum)")
    seed_option(p)
    p.add_argument("--seats", "--bots", dest="seats", metavar="LIST", help=f"comma-separated: human or a bot ({', '.join(BOTS)}) per seat "
                                                   "(default: human, then random)")
    p.add_argument("--set", action="append", metavar="NAME=VALUE", help="override a param (repeatable)")
    p.add_argument("--port", type=_port, metavar="P", default=DEFAULT_PORT, help="the port to listen on")
    p.add_argument("--host", metavar="ADDRESS", default="127.0.0.1",
                   help="the address to listen on; one other than this machine's needs --lan")
    p.add_argument("--lan", action="store_true", help=f"open the table to the local network (listens on {LAN_HOST} "
                                                      "unless --host says otherwise): anyone with a link can play")
    p.add_argument("--save-dir", metavar="DIR", help="where the game is saved on every move and resumed from "
                                                     "(default: a folder per game under ~/.local/state/boardwright/serve)")
    p.add_argument("--new", action="store_true", help="start a new game even if the save folder holds one")


def _port(text: str) -> int:
    if not (text.isascii() and text.isdigit() and len(text) <= 5 and 1 <= int(text) <= 65535):
        raise argparse.ArgumentTypeError(f"expected a port from 1 to 65535, got {text[:40]!r}")
    return int(text)


def _check_port(host: str, port: int) -> None:
    """Refuse a port that is taken before the game is opened (uvicorn would only log it)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
    except OSError as exc:
        raise UsageError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None


def default_save_dir(game_ref: str, variant) -> Path:
    base = Path(os.environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state") / "boardwright" / "serve"
    name = re.sub(r"[^A-Za-z0-9]+", "-", f"{game_ref}-{variant or 'base'}").strip("-")[-80:]
    return base / name


def cmd_serve(args) -> int:
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        raise UsageError("serve needs Starlette and uvicorn: pip install 'boardwright[serve]'") from None
    from .web.server import LOCAL_HOSTS, build_app, loopback, table_server
    from .web.table import open_table

    host = LAN_HOST if args.lan and args.host == "127.0.0.1" else args.host
    if not loopback(host) and not args.lan:
        raise UsageError(f"--host {host[:60]} opens the table beyond this machine: add --lan to say so")
    game_ref = str(Path(args.game).resolve()) if Path(args.game).exists() else args.game
    seats = [s.strip() for s in args.seats.split(",")] if args.seats else None
    save_dir = Path(args.save_dir) if args.save_dir else default_save_dir(game_ref, args.variant)
    _check_port(host, args.port)
    notes: list = []
    table, resumed = open_table(game_ref, args.variant, args.players, seats, args.seed, save_dir, load_game,
                                parse_settings(args.set), new=args.new, notes=notes)
    for note in notes:
        print(f"note: {note}", file=sys.stderr)
    app = build_app([table], None if args.lan else LOCAL_HOSTS)
    shown = "127.0.0.1" if host in (LAN_HOST, "::") else host
    base = f"http://{'[' + shown + ']' if ':' in shown else shown}:{args.port}"
    title = table.game.display_title
    print(f"{title}: {'resumed from' if resumed else 'saved on every move in'} {save_dir}"
          + (f" at move {len(table.moves)} (--new starts a new game)" if resumed else ""))
    if args.lan:
        print(f"WARNING: the table listens on {host}: anyone on the network who has a link can play its seat.",
              file=sys.stderr)
    print(f"  table link (every human seat, hot-seat): {base}/t/{table.tokens['table']}")
    if len(table.humans) > 1:
        for p in table.humans:
            print(f"  {table.game.player_name(p)} only: {base}/t/{table.tokens[str(p)]}")
    print("Ctrl-C stops the server; the game stays saved.", flush=True)
    table_server(app, host, args.port).run()
    return 0
