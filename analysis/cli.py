"""What analysis/analyze and analysis/report share: which run, and failing cleanly.

Both take an optional RUN_DIR (default: the newest run under
results/bench, or under --results DIR) and turn a RunError into one line on
stderr and exit status 2, never a traceback.
"""
import argparse
import os
import signal
import sys

import runs

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_ROOT = os.path.join(TOP, "results", "bench")


def parser(prog, description, die_on_closed_pipe=True):
    """The shared arguments. die_on_closed_pipe: piped into head, stop quietly as a
    shell tool does (report); otherwise use say(), which keeps going (analyze
    must finish writing its files whoever reads its output)."""
    if die_on_closed_pipe:
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    ap = argparse.ArgumentParser(prog=prog, description=description)
    ap.add_argument("run_dir", nargs="?", metavar="RUN_DIR",
                    help="a run directory results/bench/<run-id> (default: the newest run)")
    ap.add_argument("--results", metavar="DIR", default=DEFAULT_ROOT,
                    help="where runs are looked for when RUN_DIR is not given"
                         " (default: %(default)s)")
    return ap


def load_run(args, prog, complete=False):
    """The run named by args, loaded (without RUN_DIR: the newest, or with complete the
    newest whose boots all succeeded); exits 2 with a message on a RunError."""
    try:
        path = args.run_dir or runs.latest(args.results, note=lambda m: warn(prog, m),
                                           complete=complete)
        return runs.load(path)
    except runs.RunError as e:
        print(f"{prog}: error: {e}", file=sys.stderr)
        sys.exit(2)


def say(msg):
    """print(msg), and once stdout is closed, nothing more."""
    try:
        print(msg, flush=True)
    except BrokenPipeError:
        sys.stdout = open(os.devnull, "w")


def warn(prog, msg):
    print(f"{prog}: {msg}", file=sys.stderr)
