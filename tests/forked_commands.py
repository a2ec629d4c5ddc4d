"""`boardwright` commands run as the real process would run them, without starting Python for each.

A command started as `python -m boardwright ...` spends about 0.45 s of CPU starting Python
and importing the package before it does its work; the docs' shown outputs (tests/regen_docs.py)
run 45 of them. Here one server process per folder starts once, as such a command would (the
same interpreter, environment, working folder, `sys.path` and pipes for its standard
streams, the command line's modules imported), and forks one child per command: the child
puts fresh pipes under its file descriptors 0, 1 and 2, whose Python objects the server never
used, so they buffer as a real command's do (standard output in blocks, standard error by the
line), and runs the `boardwright` module as `python -m` runs it. Its output and exit code are
what a subprocess gives; `test_docs_outputs.py` compares the two on a sample of commands.

The server reads requests from, and answers on, a socket of its own (file descriptor 3), never
its standard streams.

    with CommandServer(folder, env) as server:
        code, output = server.run(["validate", "punto"], stdin="")   # stderr merged into stdout
"""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

# The server's program (`python -c`), so that sys.path[0] is the working folder, as under `-m`.
SERVER = r'''
import atexit, json, os, runpy, socket, sys
import boardwright.cli.main
channel = socket.socket(fileno=3)
requests = channel.makefile("r", encoding="utf-8")
answers = channel.makefile("w", encoding="utf-8")


def run_command(argv, merged):
    """In the forked child: the command on the pipes under 0, 1 and 2; never returns."""
    os.dup2(merged, 1)
    os.dup2(merged, 2)
    os.close(merged)
    sys.argv = ["-m", *argv]
    sys.path[0] = os.getcwd()
    code = 0
    try:
        runpy.run_module("boardwright", run_name="__main__", alter_sys=True)
    except SystemExit as done:
        if done.code is None:
            code = 0
        elif isinstance(done.code, int):
            code = done.code
        else:
            print(done.code, file=sys.stderr)
            code = 1
    except BaseException:
        sys.excepthook(*sys.exc_info())
        code = 1
    try:
        atexit._run_exitfuncs()
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        os._exit(code & 0xFF)


for line in requests:
    request = json.loads(line)
    given_read, given_write = os.pipe()
    out_read, out_write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.dup2(given_read, 0)
        for fd in (given_read, given_write, out_read):
            os.close(fd)
        run_command(request["argv"], out_write)
    os.close(given_read)
    os.close(out_write)
    with os.fdopen(given_write, "wb") as given:
        given.write(request["stdin"].encode("utf-8"))
    with os.fdopen(out_read, "rb") as printed:
        output = printed.read()
    _, status = os.waitpid(pid, 0)
    answers.write(json.dumps({"output": output.decode("utf-8", "surrogateescape"),
                              "status": os.waitstatus_to_exitcode(status)}) + "\n")
    answers.flush()
'''


class CommandServer:
    """One server process in `folder` with environment `env`; `run` runs a command in a fork of it."""

    def __init__(self, folder: Path, env: dict):
        self.folder, self.env = folder, env

    def __enter__(self) -> "CommandServer":
        mine, theirs = socket.socketpair()
        os.set_inheritable(theirs.fileno(), True)
        # The server's descriptor 3 must be its end of the socket: Popen moves pass_fds by number.
        self.process = subprocess.Popen(
            [sys.executable, "-c", f"import os\nif {theirs.fileno()} != 3: os.dup2({theirs.fileno()}, 3, inheritable=False); os.close({theirs.fileno()})\n" + SERVER],
            cwd=self.folder, env=self.env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, pass_fds=(theirs.fileno(),))
        theirs.close()
        self.channel = mine
        self.requests = mine.makefile("w", encoding="utf-8")
        self.answers = mine.makefile("r", encoding="utf-8")
        return self

    def run(self, argv: list[str], stdin: str = "") -> tuple[int, str]:
        """(exit code, standard output and error merged as they were written) of `boardwright argv`."""
        self.requests.write(json.dumps({"argv": list(argv), "stdin": stdin}) + "\n")
        self.requests.flush()
        answer = self.answers.readline()
        if not answer:
            _, error = self.process.communicate(timeout=60)
            raise RuntimeError(f"the command server ended: {error.decode(errors='replace')}")
        answer = json.loads(answer)
        return answer["status"], answer["output"].encode("utf-8", "surrogateescape").decode("utf-8", "replace")

    def __exit__(self, *exc) -> None:
        for stream in (self.requests, self.answers):
            stream.close()
        self.channel.close()
        try:
            self.process.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.communicate()
