"""The BPF selftests runners' logs read into per-test rows (selftests.py table).

One parser per runner's format: test_verifier (parse_verifier), test_progs
(parse_progs), lib/test_bpf.ko's kernel messages (parse_test_bpf), test_tag
(parse_tag); each gives (test, status, seconds, console line) rows, with the
seconds from RUNNER.times and the console failures that fell inside the
test. table(DIR) reads a selftests boot's directory.
"""
import fnmatch
import os
import re
import sys

from selftests_config import read_denylist
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
