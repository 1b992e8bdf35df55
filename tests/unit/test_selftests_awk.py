"""The guest's awk and the host's Python read the same test_progs log alike.

tests/guest/run-selftests finds the test test_progs hung in (next_test_progs_test)
from the tests its log reports, with an awk pattern; tests/selftests_logs.py
parse_progs() makes the tables from the same log. Fed every committed
test_progs log, the awk pattern (taken from run-selftests itself, so that a
change there is tested) must find the same top-level tests, in the same order,
as the Python parser: otherwise a hang would be blamed on the wrong test, or
a test counted on one side only.
"""
import glob
import os
import re
import subprocess
import unittest

import selftests_logs

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RUNNER = os.path.join(TOP, "tests", "guest", "run-selftests")
LOGS = sorted(glob.glob(os.path.join(TOP, "results", "selftests", "*", "out", "test_progs.log")))


def awk_pattern():
    """The regex run-selftests' awk tests each log line with ("if (l ~ /.../)")."""
    with open(RUNNER) as f:
        text = f.read()
    body = text[text.index("next_test_progs_test() {"):]
    return re.search(r"if \(l ~ (/\^#.*?/)\)", body).group(1)


def awk_tests(log):
    """The top-level tests the awk pattern finds in a log's text, in order (the names it
    keeps)."""
    program = ("{ l = $0; if (l ~ %s) { sub(/^#[0-9]+ +/, \"\", l);"
               " sub(/:(OK|SKIP|FAIL).*/, \"\", l); print l } }" % awk_pattern())
    out = subprocess.run(["awk", program], input=log, capture_output=True, text=True,
                         check=True)
    return out.stdout.splitlines()


class AwkTest(unittest.TestCase):
    def test_there_are_logs(self):
        self.assertGreater(len(LOGS), 0)

    def test_same_tests_as_the_parser(self):
        for path in LOGS:
            with self.subTest(log=os.path.relpath(path, TOP)):
                with open(path, errors="replace") as f:
                    log = f.read()
                rows, _ = selftests_logs.parse_progs(log, {})
                python = [name for name, _, _, _ in rows if "/" not in name]
                # The parser stops where the log repeats the failed tests' logs
                # ("All error logs:"); the awk reads on, which only repeats names.
                head = log.split("\nAll error logs:")[0]
                self.assertEqual(awk_tests(head), python)
                self.assertEqual(set(awk_tests(log)), set(python))


if __name__ == "__main__":
    unittest.main()
