"""The selftests commands over parsed runs: table, compare and expect-cfi."""
import fnmatch
import json
import os
import re
import sys

from selftests_logs import (CONSOLE_BAD, KMSG_TIME, STATUS, console_findings, counts, fmt,
                            parse_progs, table)


def cmd_table(d):
    runners, outside = table(d)
    with open(os.path.join(d, "selftests.tsv"), "w") as f:
        f.write("runner\ttest\tstatus\tseconds\tconsole\n")
        for runner, rows in runners.items():
            for test, status, secs, line in rows:
                f.write(f"{runner}\t{test}\t{status}\t{'-' if secs is None else secs}\t{line or '-'}\n")
    for runner, rows in runners.items():
        print(f"{runner}: {fmt(counts(rows))}")
        for test, _, _, line in rows:
            if line:
                print(f"  {test}: {line if line.startswith(('skipped by name', 'selected but', 'hung:')) else 'failed on the console: ' + line}")
    for line in outside:
        print(f"console, outside any test: {line}")
    failed = any(row[1] == "FAIL" for rows in runners.values() for row in rows)
    return 1 if failed or outside else 0


def cmd_compare(a, b, results_dir):
    (ta, oa), (tb, ob) = table(a), table(b)
    na, nb = os.path.basename(a.rstrip("/")), os.path.basename(b.rstrip("/"))
    cases = []
    bad = 0

    def outcome(row):
        return f"{row[1]} ({row[3]})" if row[3] else row[1]

    for runner in sorted(set(ta) | set(tb)):
        ra = {row[0]: outcome(row) for row in ta.get(runner, [])}
        rb = {row[0]: outcome(row) for row in tb.get(runner, [])}
        # The subtests of a test one side skipped by name did not run there.
        # A subtest skipped by a pattern ("T/SUB*") is listed by the pattern
        # on its side: it stands for the other side's subtests it matches.
        for x, y in ((ra, rb), (rb, ra)):
            for p in [p for p in x if "*" in p and x[p].startswith("SKIP")]:
                matched = [t for t in y if t not in x and fnmatch.fnmatchcase(t, p)]
                for t in matched:
                    x[t] = x[p]
                if matched:
                    del x[p]
            for t in set(y) - set(x):
                parent = t.partition("/")[0]
                if "/" in t and x.get(parent, "").startswith("SKIP"):
                    x[t] = "SKIP (its test was skipped)"
        diffs = [(t, ra.get(t, "absent"), rb.get(t, "absent"))
                 for t in sorted(set(ra) | set(rb), key=lambda t: (t not in ra, t))
                 if ra.get(t, "absent") != rb.get(t, "absent")]
        ca, cb = counts(ta.get(runner, [])), counts(tb.get(runner, []))
        print(f"{runner}: {na}: {fmt(ca)}; {nb}: {fmt(cb)}")
        for t, sa, sb in diffs:
            print(f"  differs: {t}: {na} {sa}, {nb} {sb}")
        # A test skipped by name differs but has not regressed.
        regressed = [t for t, sa, sb in diffs if sa == "PASS" and not sb.startswith(("PASS", "SKIP"))]
        for t in regressed:
            print(f"  regressed: {t}")
        # A status may carry the console line: "FAIL (CFI failure at ...)".
        failed_b = [t for t, st in rb.items() if st.startswith("FAIL")]
        also_a = sum(ra.get(t, "").startswith("FAIL") for t in failed_b)
        print(f"  {runner}: {len(regressed)} regressed; {len(failed_b)} fail on {nb}, "
              f"{also_a} of them also on {na}")
        cases.append({"name": f"{runner}: no test that passes on {na} fails",
                      "status": "PASS" if not regressed else "FAIL"})
        cases.append({"name": f"{runner}: no failed test",
                      "status": "PASS" if cb["FAIL"] == 0 and runner in tb else "FAIL"})
        bad += bool(regressed) + (cb["FAIL"] != 0)
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


EXPECT_MARK = re.compile(r"ktest: (begin|end) expect-cfi (\S+)")


def expect_cfi_windows(console):
    """{test: [console lines CFI failures, oopses, BUG:s or warnings]} for
    each test tests/guest/run-expect-cfi ran, from its begin mark to its end
    mark, in the console's own order (no clocks); a test whose end mark
    never came (the guest died) gets what came after its begin mark."""
    windows, current = {}, None
    for line in console.splitlines():
        m = KMSG_TIME.match(line.strip())
        text = m.group(2) if m else line.strip()
        mark = EXPECT_MARK.search(text)
        if mark:
            current = mark.group(2) if mark.group(1) == "begin" else None
            if current is not None:
                windows.setdefault(current, [])
        elif current is not None and CONSOLE_BAD.search(text):
            windows[current].append(text)
    return windows


def cmd_expect_cfi(d, names, results_dir):
    console_path = os.path.join(d, "console.log")
    log_path = os.path.join(d, "out", "test_progs.log")
    for path in (console_path, log_path):
        if not os.path.exists(path):
            sys.exit(f"selftests.py: {path} does not exist: not an expect-cfi boot directory "
                     "(tests/run writes one for each expect-cfi line of tests/plan)")
    with open(console_path, errors="replace") as f:
        windows = expect_cfi_windows(f.read())
    with open(log_path, errors="replace") as f:
        # test_progs' own words (OK, SKIP, FAIL) for the statuses parse_progs gives.
        said = {status: word for word, status in STATUS.items()}
        ran_as = {row[0]: said[row[1]] for row in parse_progs(f.read(), {})[0]}
    cases = []
    for name in names:
        ran = ran_as.get(name)
        cfi = [line for line in windows.get(name, []) if line.startswith("CFI failure at")]
        if name not in windows or ran is None:
            ok, why = False, "did not run (no begin mark or no result in test_progs' log)"
        elif not cfi:
            ok, why = False, f"test_progs {ran}, console clean while it ran"
        else:
            ok, why = True, f"test_progs {ran}, {len(cfi)} CFI failure(s), first: {cfi[0]}"
        print(f"{'ok' if ok else 'NOT OK':6} {name}: {why}")
        cases.append({"name": f"{name} fails with a CFI failure", "status": "PASS" if ok else "FAIL"})
    if results_dir:
        os.makedirs(results_dir, exist_ok=True)
        with open(os.path.join(results_dir, "results.json"), "w") as f:
            json.dump({"name": "selftests-expect-cfi",
                       "status": "PASS" if all(c["status"] == "PASS" for c in cases) else "FAIL",
                       "test_cases": cases, "sub_groups": []}, f, indent=1)
    return 0 if all(c["status"] == "PASS" for c in cases) else 1
