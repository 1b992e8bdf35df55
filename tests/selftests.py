#!/usr/bin/env python3
"""Per-test tables of the kernel's BPF selftests, and their comparison.

usage: selftests.py table DIR
       selftests.py compare DIR_A DIR_B [--results OUTDIR]
       selftests.py config DOTCONFIG REASONS FRAGMENT...

DIR is a selftests boot's directory (tests/run): DIR/out/RUNNER.log holds
each runner's full output (tests/guest/run-selftests), DIR/console.log the
guest console.

table   writes DIR/selftests.tsv (runner, test, status, seconds) and prints
        each runner's counts. test_verifier reports every test twice at most
        (/u unprivileged, /p privileged); test_progs reports tests and
        subtests (its JSON summary, test_progs.json); test_tag one line.
compare prints every test whose status differs between A and B, each
        runner's counts, and the CFI failures, oopses, BUG:s and warnings in
        either console. Exits 1 if any outcome differs or B fails a test.
        With --results, also writes OUTDIR/results.json in the shape of
        `kunit.py parse --json`, so that tests/tally.py counts it.
config  prints, as a table, every option the selftests' config FRAGMENTs
        ask for that DOTCONFIG does not have, with the reason from REASONS
        (lines "CONFIG_X reason", shell globs allowed; the last match wins).
"""
import fnmatch
import json
import os
import re
import sys

# The console lines make test fails on (tests/tally.py, next to this file).
from tally import BAD as CONSOLE_BAD
VERIFIER_LINE = re.compile(r"^(#\d+/[up]) (.*) (OK|SKIP|FAIL)(?:[ :(].*)?$")
STATUS = {"OK": "PASS", "SKIP": "SKIP", "FAIL": "FAIL"}


def parse_verifier(log):
    rows = []
    for line in log.splitlines():
        m = VERIFIER_LINE.match(line)
        if m:
            rows.append((f"{m.group(1)} {m.group(2)}", STATUS[m.group(3)]))
    return rows


def parse_progs(path_json, log):
    """test_progs: from its JSON summary if there is one, else its log."""
    rows = []
    data = None
    if os.path.exists(path_json) and os.path.getsize(path_json):
        with open(path_json) as f:
            try:
                data = json.load(f)
            except json.JSONDecodeError:
                data = None
    if data is not None:
        for t in data.get("results", []):
            name = f"#{t['number']} {t['name']}"
            status = "FAIL" if t.get("failed") else ("SKIP" if t.get("skipped") else "PASS")
            rows.append((name, status))
            for s in t.get("subtests", []):
                st = "FAIL" if s.get("failed") else ("SKIP" if s.get("skipped") else "PASS")
                rows.append((f"#{t['number']}/{s['number']} {t['name']}/{s['name']}", st))
        return rows
    for line in log.splitlines():
        m = re.match(r"^(#\d+(?:/\d+)?)\s+(\S+):(OK|SKIP|FAIL)\b", line)
        if m:
            rows.append((f"{m.group(1)} {m.group(2)}", STATUS[m.group(3)]))
    return rows


def parse_tag(log):
    m = re.search(r"^test_tag: OK \((\d+) tests\)", log, re.M)
    return [("test_tag", "PASS" if m else "FAIL")]


def table(d):
    """{runner: [(test, status)]} of a selftests boot directory."""
    out = os.path.join(d, "out")
    if not os.path.isdir(out):
        sys.exit(f"selftests.py: {out} does not exist: not a selftests run directory (make selftests VARIANT=... writes results/selftests/ARCH-VARIANT)")
    runners = {}
    for name in sorted(os.listdir(out)):
        if not name.endswith(".log"):
            continue
        runner = name[:-4]
        with open(os.path.join(out, name), errors="replace") as f:
            log = f.read()
        if runner == "test_verifier":
            rows = parse_verifier(log)
        elif runner == "test_progs":
            rows = parse_progs(os.path.join(out, "test_progs.json"), log)
        elif runner == "test_tag":
            rows = parse_tag(log)
        else:
            rows = [(runner, "PASS" if "Summary:" in log and " 0 FAILED" in log else "FAIL")]
        if not rows:
            rows = [(f"{runner}: no results in its log", "FAIL")]
        runners[runner] = rows
    return runners


def counts(rows):
    c = {"PASS": 0, "SKIP": 0, "FAIL": 0}
    for _, s in rows:
        c[s] += 1
    return c


def fmt(c):
    return f"{c['PASS']} passed, {c['SKIP']} skipped, {c['FAIL']} failed"


def console_findings(d):
    path = os.path.join(d, "console.log")
    if not os.path.exists(path):
        return ["no console.log"]
    with open(path, errors="replace") as f:
        return [l.strip() for l in f if CONSOLE_BAD.search(l)]


def cmd_table(d):
    runners = table(d)
    with open(os.path.join(d, "selftests.tsv"), "w") as f:
        f.write("runner\ttest\tstatus\n")
        for runner, rows in runners.items():
            for test, status in rows:
                f.write(f"{runner}\t{test}\t{status}\n")
    for runner, rows in runners.items():
        print(f"{runner}: {fmt(counts(rows))}")
    return 0


def cmd_compare(a, b, results_dir):
    ta, tb = table(a), table(b)
    na, nb = os.path.basename(a.rstrip("/")), os.path.basename(b.rstrip("/"))
    cases = []
    bad = 0
    for runner in sorted(set(ta) | set(tb)):
        ra, rb = dict(ta.get(runner, [])), dict(tb.get(runner, []))
        diffs = [(t, ra.get(t, "absent"), rb.get(t, "absent"))
                 for t in sorted(set(ra) | set(rb), key=lambda t: (t not in ra, t))
                 if ra.get(t, "absent") != rb.get(t, "absent")]
        ca, cb = counts(ta.get(runner, [])), counts(tb.get(runner, []))
        print(f"{runner}: {na}: {fmt(ca)}; {nb}: {fmt(cb)}")
        for t, sa, sb in diffs:
            print(f"  differs: {t}: {na} {sa}, {nb} {sb}")
        same = not diffs
        cases.append({"name": f"{runner}: same outcome for every test as {na}",
                      "status": "PASS" if same else "FAIL"})
        cases.append({"name": f"{runner}: no failed test",
                      "status": "PASS" if cb["FAIL"] == 0 and runner in tb else "FAIL"})
        bad += (not same) + (cb["FAIL"] != 0)
    for d, n in ((a, na), (b, nb)):
        found = console_findings(d)
        print(f"console of {n}: {len(found)} CFI failure/oops/BUG/warning lines")
        for line in found[:20]:
            print(f"  {line}")
    if results_dir:
        os.makedirs(results_dir, exist_ok=True)
        with open(os.path.join(results_dir, "results.json"), "w") as f:
            json.dump({"name": "selftests-compare", "status": "PASS" if not bad else "FAIL",
                       "test_cases": cases, "sub_groups": []}, f, indent=1)
    return 1 if bad else 0


def read_config(path):
    opts = {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            m = re.match(r"^(CONFIG_\w+)=(.*)$", line) or re.match(r"^# (CONFIG_\w+) is not set$", line)
            if m:
                opts[m.group(1)] = m.group(2) if m.lastindex == 2 else "n"
    return opts


def cmd_config(dotconfig, reasons_file, fragments):
    have = read_config(dotconfig)
    reasons = []
    with open(reasons_file) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                pat, _, why = line.strip().partition(" ")
                reasons.append((pat, why.strip()))
    print("option\twanted\tin_kernel\treason")
    missing = 0
    for frag in fragments:
        if not os.path.exists(frag):
            continue
        for opt, want in read_config(frag).items():
            got = have.get(opt, "n")
            if got == want or (want == "m" and got == "y"):
                continue
            why = "not set by this kernel's fragments"
            for pat, r in reasons:
                if fnmatch.fnmatch(opt, pat):
                    why = r
            print(f"{opt}\t{want}\t{got}\t{why}")
            missing += 1
    return 0


def main(argv):
    if len(argv) >= 5 and argv[1] == "config":
        return cmd_config(argv[2], argv[3], argv[4:])
    if len(argv) == 3 and argv[1] == "table":
        return cmd_table(argv[2])
    if len(argv) in (4, 6) and argv[1] == "compare":
        results = None
        if len(argv) == 6:
            if argv[4] != "--results":
                sys.exit(f"selftests.py: unknown option {argv[4]!r} (valid: --results OUTDIR)")
            results = argv[5]
        return cmd_compare(argv[2], argv[3], results)
    sys.exit(__doc__.strip())


if __name__ == "__main__":
    sys.exit(main(sys.argv))
