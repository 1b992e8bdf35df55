#!/usr/bin/env python3
"""Per-test tables of the kernel's BPF selftests, and their comparison.

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
import fnmatch
import json
import os
import re
import sys

# The console lines make test fails on (tests/tally.py, next to this file).
from tally import BAD as CONSOLE_BAD
VERIFIER_LINE = re.compile(r"^(#\d+/[up]) (.*) (OK|SKIP|FAIL)(?:[ :(].*)?$")
STATUS = {"OK": "PASS", "SKIP": "SKIP", "FAIL": "FAIL"}


# test_progs' own framework test fails this subtest on purpose, and
# passes (test_progs counts it OK) when the failure is recorded.
FAILS_ON_PURPOSE = {"prog_tests_framework/test_fail_subtest"}
PROGS_LINE = re.compile(r"^#(\d+)\s+(\S+):(OK|SKIP|FAIL)\b")


def read_times(path):
    """({line number: seconds since start}, start on CLOCK_MONOTONIC or None)
    from a linetimes file; ({}, None) if there is none."""
    times, start = {}, None
    if os.path.exists(path):
        with open(path) as f:
            for row in f:
                if row.startswith("# start "):
                    start = float(row.split()[2])
                elif row.strip():
                    # The last row of a guest killed mid-write may be cut.
                    n, _, t = row.partition("\t")
                    try:
                        times[int(n)] = float(t)
                    except ValueError:
                        pass
    return times, start


KMSG_TIME = re.compile(r"^\[\s*(\d+\.\d+)\]\s*(.*)$")


def console_events(d):
    """[(seconds since boot, line)] of the console lines make test fails on."""
    path = os.path.join(d, "console.log")
    events = []
    if os.path.exists(path):
        with open(path, errors="replace") as f:
            for line in f:
                m = KMSG_TIME.match(line.strip())
                if m and CONSOLE_BAD.search(m.group(2)):
                    events.append((float(m.group(1)), m.group(2)))
    return events


def attribute(rows, ends, start, events):
    """Fail each test during which the kernel logged one of events (seconds
    since boot, line): its row gets the first such line as its fourth field.
    ends maps a test to the time its result line came (seconds since start,
    the runner's start since boot); a test ran from the result line before
    it to its own."""
    order = sorted(ends.items(), key=lambda kv: kv[1])
    found = {}
    for t, line in events:
        owner = next((name for name, end in order if t - start <= end), None)
        if owner is not None:
            found.setdefault(owner, line)
    for i, row in enumerate(rows):
        if row[0] in found:
            rows[i] = (row[0], "FAIL", row[2], found[row[0]])


def timing(log, times, pattern, key):
    """{key(match): (seconds, end)} for each line of log matching pattern:
    end is when the line came (seconds since the runner started), seconds
    the time since the previous such line (or the start)."""
    out = {}
    last = 0.0
    for i, line in enumerate(log.splitlines(), 1):
        m = pattern.match(line)
        if m and i in times:
            out[key(m)] = (round(times[i] - last, 3), times[i])
            last = times[i]
    return out


def parse_verifier(log, times):
    """Rows (test, status, seconds, None) and {test: end}."""
    name = lambda m: f"{m.group(1)} {m.group(2)}"
    tm = timing(log, times, VERIFIER_LINE, name)
    rows = []
    for line in log.splitlines():
        m = VERIFIER_LINE.match(line)
        if m:
            rows.append((name(m), STATUS[m.group(3)], tm.get(name(m), (None,))[0], None))
    return rows, {n: end for n, (_, end) in tm.items()}


def parse_progs(log, times):
    """test_progs, from its log: a line "#N TEST:STATUS" per test and
    "#N/M TEST/SUBTEST:STATUS" per subtest (its JSON summary lists only the
    failed ones). Tests get durations; subtests none (test_progs prints
    their results together with their test's, when the test ends)."""
    log = log.split("\nAll error logs:")[0]  # then the failed tests' logs again
    tm = timing(log, times, PROGS_LINE, lambda m: int(m.group(1)))
    rows, ends = [], {}
    for line in log.splitlines():
        # Subtest names may hold spaces and colons ("btf_dump/btf_dump: syntax").
        m = re.match(r"^#(\d+)(/\d+)?\s+(.+?):(OK|SKIP|FAIL)(?: \(.*\))?$", line)
        if m and m.group(2):
            status = STATUS[m.group(4)]
            if m.group(3) in FAILS_ON_PURPOSE and status == "FAIL":
                status = "PASS"
            rows.append((m.group(3), status, None, None))
        elif m:
            secs, end = tm.get(int(m.group(1)), (None, None))
            if end is not None:
                ends[m.group(3)] = end
            rows.append((m.group(3), STATUS[m.group(4)], secs, None))
    return rows, ends


TEST_BPF_LINE = re.compile(r"^test_bpf: #(\d+) (.*)$")
TEST_BPF_SUMMARY = re.compile(r"^test_bpf: (?:(\w+): )?Summary: ")


TEST_BPF_VERDICT = re.compile(r"(PASS|FAIL|UNEXPECTED_\w+)")
TEST_BPF_CONT = re.compile(r"^(jited:\d.*|(PASS|FAIL|UNEXPECTED_\w+).*)$")


def test_bpf_rest(rest, lines, i):
    """The rest of test #N's line: test_bpf prints its verdict with
    pr_cont(), so another message (an hrtimer warning, say) can come
    between the description and "jited:J ... PASS", which then starts a
    line of its own. Join the first such continuation of the next few
    lines that are not test_bpf's own."""
    if TEST_BPF_VERDICT.search(rest):
        return rest
    for line in lines[i:i + 5]:
        if line.startswith("test_bpf:"):
            break
        if TEST_BPF_CONT.match(line):
            return rest.rstrip() + " " + line
    return rest


def parse_test_bpf(log, times):
    """lib/test_bpf.ko's messages: "#N DESCR [jited:J] [NS...] PASS" or a
    failure, per suite; a suite ends with its Summary line (the first,
    test_bpf's, names none)."""
    rows, ends, pending = [], {}, []
    last = 0.0
    lines = log.splitlines()
    for i, line in enumerate(lines, 1):
        m = TEST_BPF_LINE.match(line)
        if m:
            rest = test_bpf_rest(m.group(2), lines, i)
            descr = rest.split(" jited:")[0] if " jited:" in rest else \
                re.sub(r" (PASS|FAIL.*|UNEXPECTED_.*)$", "", rest).rstrip()
            ok = rest.endswith("PASS") and not rest.endswith("UNEXPECTED_PASS")
            pending.append((f"#{m.group(1)} {descr}", "PASS" if ok else "FAIL", i))
            continue
        m = TEST_BPF_SUMMARY.match(line)
        if m:
            suite = m.group(1) or "test_bpf"
            for name, status, n in pending:
                end = times.get(n)
                secs = None if end is None else round(end - last, 3)
                rows.append((f"{suite}/{name}", status, secs, None))
                if end is not None:
                    ends[f"{suite}/{name}"] = end
                    last = end
            pending = []
    for name, status, _ in pending:
        rows.append((f"(no summary)/{name}", "FAIL", None, None))
    if not re.search(r"^test_bpf: test_skb_segment: Summary: ", log, re.M):
        rows.append(("test_bpf: did not finish (no test_skb_segment summary)", "FAIL", None, None))
    return rows, ends


def add_skipped_by_name(rows, selected_path, deny_path):
    """Rows for the tests test_progs skipped by name (its -d list, with the
    reason) or never ran: test_progs.selected lists the tests its selection
    names (test_progs -l, without the denylist); a denied subtest is listed
    when its test ran."""
    denied = {}
    if os.path.exists(deny_path):
        for name, why in read_denylist(deny_path):
            denied[name] = why
    have = {row[0] for row in rows}
    for name, why in denied.items():
        parent, _, sub = name.partition("/")
        if sub and parent in have and name not in have:
            rows.append((name, "SKIP", None, f"skipped by name: {why}"))
    if not os.path.exists(selected_path):
        return
    with open(selected_path) as f:
        selected = [l.strip() for l in f if l.strip()]
    for name in selected:
        if name in have:
            continue
        why = next((w for pat, w in denied.items() if fnmatch.fnmatchcase(name, pat)), None)
        if why:
            rows.append((name, "SKIP", None, f"skipped by name: {why}"))
        else:
            rows.append((name, "FAIL", None, "selected but did not run"))


def add_hung(rows, path):
    """FAIL rows for the tests test_progs hung in (tests/guest/run-selftests
    killed it and resumed after them)."""
    if os.path.exists(path):
        with open(path) as f:
            for name in (l.strip() for l in f):
                if name:
                    rows.append((name, "FAIL", None, "hung: no output for SELFTEST_IDLE seconds; killed, test_progs resumed after it"))


def parse_tag(log, times):
    m = re.search(r"^test_tag: OK \((\d+) tests\)", log, re.M)
    end = max(times.values(), default=None)
    return [("test_tag", "PASS" if m else "FAIL", end, None)], {"test_tag": end} if end else {}


def table(d):
    """({runner: [(test, status, seconds or None, console line or None)]},
    console lines outside every test) of a selftests boot directory. A test
    during which the console shows a CFI failure, oops, BUG or warning has
    failed, whatever its runner said (CFI_PERMISSIVE only reports)."""
    out = os.path.join(d, "out")
    if not os.path.isdir(out):
        sys.exit(f"selftests.py: {out} does not exist: not a selftests run directory (make selftests VARIANT=... writes results/selftests/ARCH-VARIANT)")
    events = console_events(d)
    runners = {}
    claimed = set()
    for name in sorted(os.listdir(out)):
        if not name.endswith(".log"):
            continue
        runner = name[:-4]
        with open(os.path.join(out, name), errors="replace") as f:
            log = f.read()
        times, start = read_times(os.path.join(out, runner + ".times"))
        if runner == "test_verifier":
            rows, ends = parse_verifier(log, times)
        elif runner == "test_progs":
            rows, ends = parse_progs(log, times)
            deny = os.path.join(d, "selftests", "test_progs.deny")
            if not os.path.exists(deny):
                deny = os.path.join(d, "skipped-by-name.txt")
            add_hung(rows, os.path.join(out, "test_progs.hung"))
            add_skipped_by_name(rows, os.path.join(out, "test_progs.selected"), deny)
        elif runner == "test_tag":
            rows, ends = parse_tag(log, times)
        elif runner == "test_bpf":
            rows, ends = parse_test_bpf(log, times)
        else:
            rows, ends = [(runner, "PASS" if "Summary:" in log and " 0 FAILED" in log else "FAIL", None, None)], {}
        if not rows:
            rows = [(f"{runner}: no results in its log", "FAIL", None, None)]
        if start is not None and ends:
            last = start + max(ends.values())
            mine = [e for e in events if start <= e[0] <= last]
            claimed.update(mine)
            attribute(rows, ends, start, mine)
        runners[runner] = rows
    outside = [e[1] for e in events if e not in claimed]
    return runners, outside


def counts(rows):
    c = {"PASS": 0, "SKIP": 0, "FAIL": 0}
    for row in rows:
        c[row[1]] += 1
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


def read_config(path):
    opts = {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            m = re.match(r"^(CONFIG_\w+)=(.*)$", line) or re.match(r"^# (CONFIG_\w+) is not set$", line)
            if m:
                opts[m.group(1)] = m.group(2) if m.lastindex == 2 else "n"
    return opts


UNEXPLAINED = "not set by this kernel's fragments"


def cmd_config(dotconfig, reasons_file, fragments):
    """Print the options the selftests' fragments want that the kernel lacks, each with
    its reason from reasons_file; 1 if one has none (a gap nobody explained)."""
    have = read_config(dotconfig)
    reasons = []
    with open(reasons_file) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                pat, _, why = line.strip().partition(" ")
                reasons.append((pat, why.strip()))
    print("option\twanted\tin_kernel\treason")
    unexplained = []
    for frag in fragments:
        if not os.path.exists(frag):
            sys.exit(f"selftests.py: no config fragment {frag}")
        for opt, want in read_config(frag).items():
            got = have.get(opt, "n")
            if got == want or (want == "m" and got == "y"):
                continue
            why = UNEXPLAINED
            for pat, r in reasons:
                if fnmatch.fnmatch(opt, pat):
                    why = r
            print(f"{opt}\t{want}\t{got}\t{why}")
            if why == UNEXPLAINED:
                unexplained.append(opt)
    if unexplained:
        print(f"selftests.py: config: {len(unexplained)} option(s) the selftests want are"
              f" neither in the kernel nor explained in {reasons_file}: {', '.join(unexplained)}",
              file=sys.stderr)
        return 1
    return 0


def read_denylist(path):
    """[(name, reason)] of a DENYLIST file."""
    out = []
    with open(path) as f:
        for line in f:
            name, _, why = line.partition("#")
            if name.strip():
                out.append((name.strip(), why.strip() or "no reason given"))
    return out


def cmd_deny(dotconfig, skips, denylists):
    have = read_config(dotconfig)
    entries = []
    with open(skips) as f:
        for n, line in enumerate(f, 1):
            body, _, why = line.partition("#")
            if not body.strip():
                continue
            # NAME may hold spaces: test_progs' subtest names do.
            fields = body.split(None, 1)
            if len(fields) != 2 or not why.strip():
                sys.exit(f"selftests.py: {skips}:{n}: want 'WHEN NAME # reason' (WHEN: always or CONFIG_X=VALUE), got {line.strip()!r}")
            when, name = fields[0], fields[1].strip()
            if when != "always":
                m = re.match(r"^(CONFIG_\w+)=(\S+)$", when)
                if not m:
                    sys.exit(f"selftests.py: {skips}:{n}: WHEN must be 'always' or CONFIG_X=VALUE, got {when!r}")
                if have.get(m.group(1), "n") != m.group(2):
                    continue
            entries.append((name, f"{why.strip()} ({os.path.basename(skips)}: {when})"))
    for path in denylists:
        if not os.path.exists(path):
            sys.exit(f"selftests.py: no denylist {path}")
        for name, why in read_denylist(path):
            entries.append((name, f"{why} ({os.path.basename(path)})"))
    # test_progs merges "T" and "T/SUB" into one entry that denies only
    # SUB: a test denied whole must have no subtest entry.
    whole = {name for name, _ in entries if "/" not in name}
    print(f"# test_progs -d @FILE, from {skips} and {' '.join(denylists)} (tests/selftests.py deny)")
    for name, why in entries:
        if "/" in name and name.partition("/")[0] in whole:
            continue
        print(f"{name}\t# {why}")
    return 0


def main(argv):
    if len(argv) >= 4 and argv[1] == "deny":
        return cmd_deny(argv[2], argv[3], argv[4:])
    if len(argv) >= 5 and argv[1] == "config":
        return cmd_config(argv[2], argv[3], argv[4:])
    if len(argv) == 3 and argv[1] == "table":
        return cmd_table(argv[2])
    if len(argv) >= 4 and argv[1] in ("compare", "expect-cfi"):
        args, results = argv[2:], None
        if "--results" in args:
            i = args.index("--results")
            if i + 2 != len(args):
                sys.exit("selftests.py: --results takes one OUTDIR and comes last")
            args, results = args[:i], args[i + 1]
        bad = [a for a in args if a.startswith("-")]
        if bad:
            sys.exit(f"selftests.py: unknown option {bad[0]!r} (valid: --results OUTDIR)")
        if argv[1] == "compare" and len(args) == 2:
            return cmd_compare(args[0], args[1], results)
        if argv[1] == "expect-cfi" and len(args) >= 2:
            return cmd_expect_cfi(args[0], args[1:], results)
    sys.exit(__doc__.strip())


if __name__ == "__main__":
    sys.exit(main(sys.argv))
