#!/usr/bin/env python3
"""Tally the boots of a `make test` run.

usage: tally.py BOOTS

BOOTS has one line per boot: label, directory, allow-regex ("-" for none),
separated by tabs. Each directory holds what tests/run left: vmrun.rc,
console.log and, when the guest produced KTAP, results.json from
`kunit.py parse --json`. Prints one line per test case, one per console
finding, and the closing "N passed, N failed, N skipped"; exits 1 on any
failure.
"""
import io
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# Console lines that fail a boot unless its allow regex matches them: the
# patterns of vm/console-bad (one extended regex a line), which vm/check-series
# greps with too.
with open(os.path.join(os.path.dirname(HERE), "vm", "console-bad")) as _f:
    BAD = re.compile("|".join(line.strip() for line in _f if line.strip()))


def cases(group, prefix):
    """Yield (name, status) for every test case of a kunit.py JSON group."""
    for case in group.get("test_cases", []):
        yield f"{prefix}/{case['name']}", case["status"]
    for sub in group.get("sub_groups", []):
        yield from cases(sub, f"{prefix}/{sub['name']}")


def kunit_parser():
    """The tree's KTAP parser (tools/testing/kunit/kunit_parser.py), quiet."""
    build = os.environ.get("BUILD", os.path.join(os.path.dirname(HERE), "build"))
    sys.path.insert(0, os.path.join(build, "linux", "tools", "testing", "kunit"))
    import kunit_parser
    import kunit_printer
    kunit_parser.stdout = kunit_printer.Printer(io.StringIO())
    return kunit_parser


def failure_logs(path, label, keep=3):
    """{test name as cases() spells it: what it said} for the tests of
    path's KTAP (its *.ktap, else its console.log): its diagnostic lines that say FAIL (else its last
    ones), at most keep, joined."""
    logs = {}

    def walk(test, prefix):
        for sub in test.subtests:
            name = f"{prefix}/{sub.name}"
            said = [line.strip().lstrip("#").strip() for line in sub.log]
            said = [line for line in said if line]
            logs[name] = " | ".join(([line for line in said if "FAIL" in line] or said)[-keep:])
            walk(sub, name)

    # Guest runners write NAME.ktap; KUnit's KTAP is in the console.
    ktaps = [f for f in sorted(os.listdir(path)) if f.endswith(".ktap")] or \
        [f for f in ["console.log"] if os.path.exists(os.path.join(path, f))]
    if ktaps:
        parser = kunit_parser()
        for f in ktaps:
            with open(os.path.join(path, f), errors="replace") as k:
                walk(parser.parse_run_tests(k.readlines()), label)
    return logs


def tally_boot(label, path, allow):
    results = []
    rc_file = os.path.join(path, "vmrun.rc")
    rc = open(rc_file).read().strip() if os.path.exists(rc_file) else "missing"
    # A guest command that fails is reported by its tests; a guest that
    # timed out, panicked or never reported (124, 125) is a failure of its own.
    if rc in ("124", "125", "missing"):
        results.append((f"{label}: guest run", "FAIL",
                        f"vm/run exited {rc}; see {path}/vmrun.log"))
    # A host suite's own exit status (tests/run writes it): whatever its KTAP says.
    host_rc = os.path.join(path, "host.rc")
    if os.path.exists(host_rc) and open(host_rc).read().strip() != "0":
        results.append((f"{label}: host suite", "FAIL",
                        f"exited {open(host_rc).read().strip()}; see {path}/run.log"))
    res = os.path.join(path, "results.json")
    found = 0
    if os.path.exists(res):
        with open(res) as f:
            tests = list(cases(json.load(f), label))
        logs = failure_logs(path, label) if any(s == "FAIL" for _, s in tests) else {}
        for name, status in tests:
            found += 1
            results.append((name, status, logs.get(name, "") if status == "FAIL" else ""))
    if not found:
        results.append((f"{label}: KTAP results", "FAIL",
                        f"no test results parsed; see {path}/parse.log"))
    console = os.path.join(path, "console.log")
    allowed = re.compile(allow) if allow != "-" else None
    if os.path.exists(console):
        with open(console, errors="replace") as f:
            for line in f:
                if BAD.search(line) and not (allowed and allowed.search(line)):
                    results.append((f"{label}: console", "FAIL", line.strip()))
    else:
        results.append((f"{label}: console", "FAIL", "no console log"))
    return results


def main(argv):
    if len(argv) != 2:
        sys.exit("usage: tally.py BOOTS")
    passed = failed = skipped = 0
    with open(argv[1]) as f:
        boots = [line.rstrip("\n").split("\t") for line in f if line.strip()]
    summary = []
    for label, path, allow in boots:
        for name, status, why in tally_boot(label, path, allow):
            if status == "PASS":
                passed += 1
            elif status == "SKIP":
                skipped += 1
            else:
                failed += 1
            print(f"{status:5} {name}" + (f": {why}" if why else ""))
            summary.append({"test": name, "status": status, "detail": why})
    out = os.path.join(os.path.dirname(argv[1]), "summary.json")
    with open(out, "w") as f:
        json.dump(summary, f, indent=1)
    print(f"{passed} passed, {failed} failed, {skipped} skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
