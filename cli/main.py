"""The `boardwright` command line: its argument parser, the table of commands, and running one
of them. Each command family's arguments and body live in its own module: authoring_commands
(validate, fmt, lsp, explain, info, new, compile), table_commands (play, replay),
playtest_commands (simulate, compare, ladder, probe, bench), sweep_commands (sweep), tune_commands
(tune), testing_commands (test, check) and web_commands (serve).

Exit codes: 0 success, 1 findings (invalid rule file, failed scenario, rule error),
2 usage error. Diagnostics go to stderr; no traceback reaches the user for a bad input.
"""
from __future__ import annotations

import argparse
import re
import sys

from ..dsl.errors import SHOWN_NAME, BoardwrightError, UsageError, clipped, did_you_mean
from . import authoring_commands as authoring, playtest_commands as playtest, table_commands as table
from . import sweep_commands as sweep, testing_commands as testing, tune_commands as tune, web_commands as web
from .terminal import safe_output


class _Parser(argparse.ArgumentParser):
    """argparse with our exit code 2, a did-you-mean for a misspelt command, and every
    option's default shown in its help."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", _DefaultsFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message):
        wrong = re.match(r"argument (?:command|COMMAND): invalid choice: '([^']*)'", message)
        if wrong:
            hint = did_you_mean(wrong.group(1), COMMANDS)
            message = f"no command '{clipped(wrong.group(1))}'; commands: {', '.join(COMMANDS)}" + (f"; {hint}" if hint else "")
        else:   # argparse quotes the arguments it could not use: a 100,000-character one is cut
            message = re.sub(r"\S{%d,}" % (SHOWN_NAME + 1), lambda word: clipped(word.group()), message)
        self.print_usage(sys.stderr)
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        raise SystemExit(2)


class _DefaultsFormatter(argparse.HelpFormatter):
    """Appends '(default: X)' to an option's help, unless it has no default worth saying or
    its help already says it."""

    def _get_help_string(self, action):
        text = action.help or ""
        if action.default in (None, False, argparse.SUPPRESS) or "default" in text or not action.option_strings:
            return text
        return f"{text} (default: %(default)s)"


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="boardwright", description="Rules-as-data engine for tabletop games.",
                     epilog="Run 'boardwright COMMAND --help' for a command's options. Exit codes: 0 success, "
                            "1 findings, 2 usage error, 130 interrupted.")
    parser.add_argument("--version", action="version", version=f"boardwright {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for add_command in (authoring.add_validate, table.add_play, playtest.add_simulate, playtest.add_bench,
                        table.add_replay, web.add_serve, playtest.add_compare, testing.add_check, playtest.add_ladder,
                        playtest.add_probe, sweep.add_sweep, tune.add_tune, authoring.add_compile, testing.add_test, authoring.add_fmt,
                        authoring.add_lsp, authoring.add_explain, authoring.add_info, authoring.add_new):
        add_command(sub)        # in the order `boardwright --help` lists them
    return parser


def _version() -> str:
    try:
        from importlib.metadata import PackageNotFoundError, version
        return version("boardwright")
    except PackageNotFoundError:        # run from a source tree that was never installed
        return "unknown"


def main(argv=None) -> int:
    """Run one command. Everything it prints passes through cli/terminal.py's SafeStream, so a
    control character from a user file never reaches the terminal raw (the language server,
    which speaks JSON-RPC on its streams, is left alone)."""
    with safe_output():
        parser = build_parser()
        args = parser.parse_args(argv)
        if args.command is None:            # a bare `boardwright`: say what there is
            parser.print_help()
            return 0
        if args.command != "lsp":
            return _run(args)
    return _run(args)


def _run(args) -> int:
    try:
        return COMMANDS[args.command](args)
    except UsageError as err:
        print(f"boardwright: error: {err}", file=sys.stderr)
        return 2
    except BoardwrightError as err:
        print(err.format(), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("\nboardwright: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except OSError as exc:          # a file named on the command line that the system refuses
        shown = clipped(exc.filename) if exc.filename is not None else ""
        print(f"boardwright: error: {shown + ': ' if shown else ''}{exc.strerror or exc}", file=sys.stderr)
        return 2
    except Exception as exc:        # a bug of ours, not of the input: say so, briefly
        print(f"boardwright: internal error: {type(exc).__name__}: {exc}\n"
              "This is a bug in Boardwright, not in your files; please report it with the command "
              "you ran.", file=sys.stderr)
        return 3


COMMANDS = {"validate": authoring.cmd_validate, "play": table.cmd_play, "replay": table.cmd_replay,
            "simulate": playtest.cmd_simulate, "compare": playtest.cmd_compare, "bench": playtest.cmd_bench,
            "check": testing.cmd_check, "test": testing.cmd_test, "fmt": authoring.cmd_fmt,
            "compile": authoring.cmd_compile, "lsp": authoring.cmd_lsp, "explain": authoring.cmd_explain,
            "info": authoring.cmd_info, "new": authoring.cmd_new, "ladder": playtest.cmd_ladder,
            "probe": playtest.cmd_probe, "serve": web.cmd_serve, "sweep": sweep.cmd_sweep, "tune": tune.cmd_tune}


if __name__ == "__main__":
    raise SystemExit(main())
