#!/usr/bin/env python3
"""Per-test tables of the kernel's BPF selftests, and their comparison.

The command line of three modules: selftests_logs.py (a parser per runner's
log format, and the per-test table), selftests_report.py (table, compare,
expect-cfi) and selftests_config.py (config, deny).

usage: selftests.py table DIR
       selftests.py compare DIR_A DIR_B [--results OUTDIR]
       selftests.py expect-cfi DIR TEST... [--results OUTDIR]
       selftests.py config DOTCONFIG REASONS FRAGMENT...
       selftests.py deny DOTCONFIG SKIPS DENYLIST...

DIR is a selftests boot's directory (tests/run): DIR/out/RUNNER.log holds
each runner's full output (tests/guest/run-selftests), DIR/console.log the
guest console.

table   writes DIR/selftests.tsv (runner, test, status, seconds) and prints
        each runner's counts. test_verifier reports every test twice at most
        (/u unprivileged, /p privileged); test_progs reports tests and
        subtests, and the tests it skipped by name (test_progs.deny);
        test_bpf (lib/test_bpf.ko) the tests of its three suites; test_tag
        one line.
        seconds: from RUNNER.times (tests/guest/src/linetimes.c), the time
        between a test's result line and the one before it; "-" for
        test_progs' subtests, which print when their test ends.
        Exits 1 if a test failed (in its runner's log, or on the console
        while it ran) or the console has such a line outside any test.
compare prints every test whose status differs between A and B (a test
        skipped by name shows its reason, one failed on the console the
        line), each runner's counts, and the CFI failures, oopses, BUG:s and
        warnings in either console. Exits 1 if a test that passes on A does
        not pass on B (and was not skipped by name), or B fails a test.
        With --results, also writes OUTDIR/results.json in the shape of
        `kunit.py parse --json`, so that tests/tally.py counts it.
expect-cfi  the negative control of a kernel without the series: checks
        that each test_progs TEST, run alone by tests/guest/run-expect-cfi,
        caused a CFI failure between its begin and end marks on the console
        (its callback or struct_ops member was called through a function
        pointer the JIT gave no kCFI type). Prints one line per TEST; exits
        1 if one ran clean or did not run. --results as compare.
deny    prints test_progs' denylist (its -d @FILE format: a name per line,
        "# reason" after it) for a kernel: the entries of SKIPS (lines
        "WHEN NAME # reason", WHEN "always" or CONFIG_X=VALUE, which applies
        when DOTCONFIG has it) and of the tree's DENYLIST files (upstream's
        CI skips them; their comments are the reasons).
config  prints, as a table, every option the selftests' config FRAGMENTs
        ask for that DOTCONFIG does not have, with the reason from REASONS
        (lines "CONFIG_X reason", shell globs allowed; the last match wins).
"""

import argparse
import sys

from selftests_config import cmd_config, cmd_deny
from selftests_report import cmd_compare, cmd_expect_cfi, cmd_table


def parser():
    ap = argparse.ArgumentParser(prog="selftests.py", description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True, metavar="COMMAND")
    p = sub.add_parser("table", help="DIR/selftests.tsv and each runner's counts")
    p.add_argument("dir", metavar="DIR")
    p = sub.add_parser("compare", help="every test whose status differs between A and B")
    p.add_argument("a", metavar="DIR_A")
    p.add_argument("b", metavar="DIR_B")
    p.add_argument("--results", metavar="OUTDIR")
    p = sub.add_parser("expect-cfi", help="each TEST caused a CFI failure while it ran")
    p.add_argument("dir", metavar="DIR")
    p.add_argument("tests", metavar="TEST", nargs="+")
    p.add_argument("--results", metavar="OUTDIR")
    p = sub.add_parser("config", help="the options the selftests want that the kernel lacks")
    p.add_argument("dotconfig", metavar="DOTCONFIG")
    p.add_argument("reasons", metavar="REASONS")
    p.add_argument("fragments", metavar="FRAGMENT", nargs="+")
    p = sub.add_parser("deny", help="test_progs' denylist for a kernel")
    p.add_argument("dotconfig", metavar="DOTCONFIG")
    p.add_argument("skips", metavar="SKIPS")
    p.add_argument("denylists", metavar="DENYLIST", nargs="+")
    return ap


def main(argv):
    args = parser().parse_args(argv[1:])
    if args.command == "table":
        return cmd_table(args.dir)
    if args.command == "compare":
        return cmd_compare(args.a, args.b, args.results)
    if args.command == "expect-cfi":
        return cmd_expect_cfi(args.dir, args.tests, args.results)
    if args.command == "config":
        return cmd_config(args.dotconfig, args.reasons, args.fragments)
    return cmd_deny(args.dotconfig, args.skips, args.denylists)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
