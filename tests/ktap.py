"""KTAP version 1 from unittest outcomes, for kunit.py parse (make test's tally).

One result line per test method, numbered in run order after the plan line;
a failure's traceback goes before its line as "# " diagnostics, a skip is
"ok N name # SKIP reason". tools/testing/kunit/kunit.py parse turns this into
the JSON that tests/tally.py counts.
"""


def name(test):
    """tests.test_stats.StatsTest.test_median -> test_stats.StatsTest.test_median"""
    name = test.id()
    return name.split(".", 1)[1] if name.startswith(("tests.", "unit.")) else name


def render(outcomes):
    """The KTAP text of [(test, "ok" | "fail" | "skip", detail)], in run order."""
    lines = ["KTAP version 1", f"1..{len(outcomes)}"]
    for n, (test, status, detail) in enumerate(outcomes, 1):
        if status == "fail":
            lines += [f"# {line}" for line in detail.rstrip().splitlines()]
            lines.append(f"not ok {n} {name(test)}")
        elif status == "skip":
            lines.append(f"ok {n} {name(test)} # SKIP {detail}")
        else:
            lines.append(f"ok {n} {name(test)}")
    return "\n".join(lines) + "\n"
