#!/usr/bin/python3
"""The attack matrix: what each attack of the series' test hooks did, per configuration.

usage: tests/security.py collect TEST_OUT RESULT_DIR [--at-start JSON]
       tests/security.py table RESULT_DIR

collect reads the boots tests/run made from tests/security.plan (TEST_OUT/boots:
each boot's guest.ktap, console.log and env) and writes RESULT_DIR
(results/security/<run-id>/): matrix.tsv, one row per attack, victim and
configuration; checks.tsv, one row per other check of the hooks (the kCFI
hash switch, fault injection, churn) and configuration; boots/<n>-<config>-guest/
with each boot's raw guest.ktap and console.log; metadata.json (vm/metadata.py).
table (also run by collect) writes RESULT_DIR/matrix.md from those files
alone, for the README and the paper.

A row of matrix.tsv is what test_jit_wp printed for the attack ("matrix" lines:
the hook's outcome for the gadget's write, whether the load failed, what the
victim returned, which counters of /sys/kernel/debug/bpf_jit/wp moved) and
the console's verdict: the kernel lines between the test's "ktest: attack"
mark and the next, as "clean" (none but the hook's own), "reported: ..."
(the first bpf_jit/bpf_jit_wp line, addresses dropped), or "BAD: ..." for a
BUG, Oops, CFI failure or WARNING. A configuration whose kernel has no
hooks (vanilla) gets one row per attack saying so: nothing there can be
attacked through them, which is not the same as safe.
"""
import argparse
import json
import os
import re
import shutil
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(TOP, "vm"))

PROG = "tests/security.py"
MATRIX = ("config", "mode", "attack", "victim", "gadget", "load", "returned", "counters",
          "console")
CHECKS = ("config", "mode", "check", "result", "summary")
MARK = re.compile(r"ktest: attack (\S+) (\S+)")
TEST_MARK = re.compile(r"ktest: (begin|end) (\S+)")
KERNEL_LINE = re.compile(r"^\[\s*\d+\.\d+\] (.*)$")
BAD = re.compile(r"BUG:|Oops|CFI failure|WARNING:|Kernel panic")
REPORT = re.compile(r"^(bpf_jit_wp|bpf_jit):")
ADDRESS = re.compile(r"\b(?:0x)?[0-9a-f]{16}\b")
# The other checks of the hooks, and what of their output summarises them.
SUMMARIES = {
    "test_cfi_trap": re.compile(r"^ok: (\w+): (reported|killed)"),
    "test_jit_wp_fail": re.compile(r": \d+ injection points, "),
    "test_jit_wp_churn": re.compile(r"^\d+ loads; "),
}


class Error(Exception):
    pass


def ktap_tests(path):
    """{test: (result, [its output lines])} of a run-tests KTAP file."""
    tests, lines = {}, []
    with open(path, errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            m = re.match(r"^(not ok|ok) \d+ (\S+)(?: # SKIP (.*))?$", line)
            if m:
                result = "skipped" if m.group(3) is not None else (
                    "passed" if m.group(1) == "ok" else "failed")
                tests[m.group(2)] = (result, lines)
                lines = []
            elif line.startswith("# "):
                lines.append(line[2:])
    return tests


def console_windows(path):
    """{(attack, victim): [kernel lines after its mark, up to the next mark or test end]}."""
    windows, current = {}, None
    with open(path, errors="replace") as f:
        for line in f:
            m = KERNEL_LINE.match(line.rstrip("\n"))
            text = m.group(1) if m else line.rstrip("\n")
            mark = MARK.search(text)
            if mark:
                current = (mark.group(1), mark.group(2))
                windows[current] = []
            elif TEST_MARK.search(text):
                current = None
            elif current is not None and text.strip():
                windows[current].append(text)
    return windows


def verdict(lines, attack):
    """The console's verdict on one attack's window."""
    bad = [x for x in lines if BAD.search(x)]
    if bad:
        return "BAD: " + ADDRESS.sub("ADDR", bad[0])
    reports = [x for x in lines if REPORT.match(x) and not x.startswith("bpf_jit_wp_attack:")]
    if reports:
        text = ADDRESS.sub("ADDR", re.sub(r" at (?:0x)?[0-9a-f]{8,16}\b", "", reports[0]))
        more = f" (+{len(reports) - 1} more)" if len(reports) > 1 else ""
        return "reported: " + text + more
    return "clean"


def boots(test_out):
    """[(config, directory, env)] of tests/run's boots file, in order."""
    path = os.path.join(test_out, "boots")
    if not os.path.isfile(path):
        raise Error(f"{path}: no boots file (run tests/run with TEST_PLAN=tests/security.plan)")
    out = []
    with open(path) as f:
        for line in f:
            name, directory = line.split("\t")[:2]
            config = name.split(":", 1)[1].rsplit("/", 1)[0]
            env = {}
            with open(os.path.join(directory, "env")) as e:
                for kv in e:
                    k, _, v = kv.rstrip("\n").partition("=")
                    env[k] = v
            out.append((config, directory, env))
    return out


def mode_of(env):
    """The bpf_jit_wp mode of a boot, from its boot arguments (enforce by default)."""
    if env.get("VARIANT") == "vanilla":
        return "none (6.12)"
    m = re.search(r"\bbpf_jit_wp=(\w+)", env.get("BOOT_ARGS", ""))
    return m.group(1) if m else "enforce"


def collect_rows(test_out):
    """(matrix rows, check rows, configs {name: (variant, args)}, [(config, dir)])."""
    matrix, checks, configs, dirs = [], [], {}, []
    attacks = []
    for config, directory, env in boots(test_out):
        configs[config] = (env.get("VARIANT", "?"), env.get("BOOT_ARGS", ""))
        dirs.append((config, directory))
        mode = mode_of(env)
        ktap = os.path.join(directory, "guest.ktap")
        if not os.path.isfile(ktap):
            raise Error(f"{directory}: no guest.ktap (the boot of {config} did not finish)")
        tests = ktap_tests(ktap)
        windows = console_windows(os.path.join(directory, "console.log"))
        result, lines = tests.get("test_jit_wp", (None, []))
        rows = [x.split("\t")[1:] for x in lines if x.startswith("matrix\t")]
        # The mode the kernel reports (test_jit_wp prints bpf_jit/wp's) must be the
        # one the boot asked for: a refused bpf_jit_wp= would leave enforce.
        reported = [m.group(1) for m in map(re.compile(r"^mode (\w+),").match, lines) if m]
        if reported and reported[0] != mode:
            raise Error(f"{directory}: {config} booted for bpf_jit_wp={mode}, the kernel"
                        f" reports {reported[0]}")
        if result is None:
            pass  # a boot of the other checks alone
        elif result == "skipped":
            matrix.append({"config": config, "mode": mode, "attack": "(every attack)",
                           "victim": "-", "gadget": "no test hooks in this kernel", "load": "-",
                           "returned": "-", "counters": "-", "console": "-"})
        elif result != "passed" or not rows:
            raise Error(f"{directory}: test_jit_wp {result} on {config}: no matrix")
        for attack, victim, gadget, load, returned, counters in rows:
            if (attack, victim) not in attacks:
                attacks.append((attack, victim))
            matrix.append({"config": config, "mode": mode, "attack": attack, "victim": victim,
                           "gadget": gadget.split(": ", 1)[-1], "load": load,
                           "returned": returned, "counters": counters,
                           "console": verdict(windows.get((attack, victim), []), attack)})
        for test, pattern in SUMMARIES.items():
            if test not in tests:
                continue
            result, lines = tests[test]
            summary = "; ".join(x for x in lines if pattern.search(x))
            if result == "skipped":
                summary = lines[-1] if lines else ""
            checks.append({"config": config, "mode": mode, "check": test, "result": result,
                           "summary": ADDRESS.sub("ADDR", summary) or "-"})
    return matrix, checks, configs, dirs


def write_tsv(path, columns, rows):
    with open(path, "w") as f:
        f.write("\t".join(columns) + "\n")
        for r in rows:
            f.write("\t".join(str(r[c]).replace("\t", " ") for c in columns) + "\n")


def read_tsv(path):
    with open(path) as f:
        header = f.readline().rstrip("\n").split("\t")
        return [dict(zip(header, line.rstrip("\n").split("\t"))) for line in f if line.strip()]


def md_cell(text):
    return text.replace("|", "\\|")


def markdown(run_id, matrix, checks):
    """matrix.md: per attack, one column per configuration."""
    configs = list(dict.fromkeys(r["config"] for r in matrix))
    modes = {r["config"]: r["mode"] for r in matrix}
    keys = list(dict.fromkeys((r["attack"], r["victim"]) for r in matrix
                              if r["attack"] != "(every attack)"))
    cell = {(r["config"], r["attack"], r["victim"]): r for r in matrix}
    out = [f"# Attack matrix: {run_id}", "",
           "Each cell: the gadget's write (the hook's outcome); the load; what the victim"
           " returned (0x1234 its own value, 0x4321 the attacker's); counters that moved;"
           " the console's verdict.", ""]
    out.append("| attack | victim | " + " | ".join(f"{c} ({modes[c]})" for c in configs) + " |")
    out.append("|---|---|" + "---|" * len(configs))
    for attack, victim in keys:
        cells = []
        for c in configs:
            r = cell.get((c, attack, victim)) or cell.get((c, "(every attack)", "-"))
            if r is None:
                cells.append("not run")
            elif r["attack"] == "(every attack)":
                cells.append(r["gadget"])
            else:
                cells.append("; ".join([r["gadget"], r["load"], f"returned {r['returned']}",
                                        r["counters"], r["console"]]))
        out.append(f"| {attack} | {victim} | " + " | ".join(md_cell(x) for x in cells) + " |")
    if checks:
        out += ["", "| check | configuration | result | summary |", "|---|---|---|---|"]
        for r in checks:
            out.append(f"| {r['check']} | {r['config']} ({r['mode']}) | {r['result']} |"
                       f" {md_cell(r['summary'])} |")
    return "\n".join(out) + "\n"


def table(result_dir):
    matrix = read_tsv(os.path.join(result_dir, "matrix.tsv"))
    checks = read_tsv(os.path.join(result_dir, "checks.tsv"))
    path = os.path.join(result_dir, "matrix.md")
    with open(path, "w") as f:
        f.write(markdown(os.path.basename(os.path.normpath(result_dir)), matrix, checks))
    return path


def collect(test_out, result_dir, at_start=None):
    import metadata  # vm/metadata.py, the one writer of metadata.json
    matrix, checks, configs, dirs = collect_rows(test_out)
    os.makedirs(result_dir, exist_ok=True)
    for config, directory in dirs:
        dest = os.path.join(result_dir, "boots", os.path.basename(directory))
        os.makedirs(dest, exist_ok=True)
        for name in ("guest.ktap", "console.log", "qemu-argv", "env"):
            if os.path.exists(os.path.join(directory, name)):
                shutil.copy(os.path.join(directory, name), dest)
    write_tsv(os.path.join(result_dir, "matrix.tsv"), MATRIX, matrix)
    write_tsv(os.path.join(result_dir, "checks.tsv"), CHECKS, checks)
    boots_meta = [{"config": c, "clock": "tcg", "dir": os.path.join("boots", os.path.basename(d))}
                  for c, d in dirs]
    meta = metadata.describe("security", os.path.basename(os.path.normpath(result_dir)), "arm64",
                             configs, boots_meta, at_start)
    metadata.write(os.path.join(result_dir, "metadata.json"), meta)
    return table(result_dir), len(matrix), len(checks)


def main(argv):
    ap = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect", help="boots of tests/security.plan -> RESULT_DIR")
    c.add_argument("test_out", metavar="TEST_OUT")
    c.add_argument("result_dir", metavar="RESULT_DIR")
    c.add_argument("--at-start", metavar="JSON", help="vm/metadata.py start() at the run's start")
    t = sub.add_parser("table", help="RESULT_DIR/matrix.md from its tsv files")
    t.add_argument("result_dir", metavar="RESULT_DIR")
    args = ap.parse_args(argv)
    try:
        if args.cmd == "collect":
            at_start = None
            if args.at_start:
                with open(args.at_start) as f:
                    at_start = json.load(f)
            path, n, k = collect(args.test_out, args.result_dir, at_start)
            print(f"{PROG}: {n} matrix rows, {k} checks: {path}")
        else:
            print(f"{PROG}: {table(args.result_dir)}")
    except (Error, OSError) as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
