#!/usr/bin/python3
"""Run the analysis tests (analysis/tests/test_*.py) with unittest.

usage: analysis/test.py [--ktap FILE] [-v] [PATTERN ...]

Prints unittest's report and a closing "analysis: N passed, N failed,
N skipped" line. --ktap FILE also writes the results as KTAP version 1,
one "ok N name" / "not ok N name" line per test method, for
tools/testing/kunit/kunit.py parse (make test's tally). PATTERN keeps the
tests whose id contains it. Exits 1 when a test fails or errs.
"""
import argparse
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import ktap  # noqa: E402


class Recorder(unittest.TextTestResult):
    """A TextTestResult that also keeps (test id, status, detail) in order."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.outcomes = []

    def addSuccess(self, test):
        super().addSuccess(test)
        self.outcomes.append((test, "ok", ""))

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self.outcomes.append((test, "fail", self.failures[-1][1]))

    def addError(self, test, err):
        super().addError(test, err)
        self.outcomes.append((test, "fail", self.errors[-1][1]))

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self.outcomes.append((test, "skip", reason))

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        self.outcomes.append((test, "ok", ""))

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        self.outcomes.append((test, "fail", "unexpected success"))


def flatten(suite):
    for t in suite:
        if isinstance(t, unittest.TestSuite):
            yield from flatten(t)
        else:
            yield t


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ktap", metavar="FILE", help="also write KTAP version 1 results to FILE")
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("patterns", nargs="*", metavar="PATTERN")
    a = ap.parse_args(argv)
    loaded = unittest.defaultTestLoader.discover(os.path.join(HERE, "tests"), pattern="test_*.py",
                                                 top_level_dir=HERE)
    tests = [t for t in flatten(loaded) if not a.patterns or any(p in t.id() for p in a.patterns)]
    runner = unittest.TextTestRunner(resultclass=Recorder, verbosity=2 if a.verbose else 1,
                                     stream=sys.stdout)
    result = runner.run(unittest.TestSuite(tests))
    passed = sum(1 for _, s, _ in result.outcomes if s == "ok")
    failed = sum(1 for _, s, _ in result.outcomes if s == "fail")
    skipped = sum(1 for _, s, _ in result.outcomes if s == "skip")
    if a.ktap:
        with open(a.ktap, "w") as f:
            f.write(ktap.render(result.outcomes))
    print(f"analysis: {passed} passed, {failed} failed, {skipped} skipped")
    return 0 if failed == 0 and result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
