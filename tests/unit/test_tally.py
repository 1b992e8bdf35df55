"""tally.py: a failed test's line says what the test said (its FAIL lines),
read with the tree's KTAP parser from the boot's KTAP file or console."""
import io
import json
import os
import tempfile
import unittest
from contextlib import redirect_stdout

import tally

KTAP = """KTAP version 1
1..2
# ok: first check: got 1, expected 1
ok 1 test_good
# function 0 at 0x1
# FAIL:   listed in /proc/kallsyms: got 0, expected 1
# more output
not ok 2 test_bad
"""

RESULTS = {"name": "main", "sub_groups": [],
           "test_cases": [{"name": "test_good", "status": "PASS"},
                          {"name": "test_bad", "status": "FAIL"}]}


@unittest.skipUnless(os.path.exists(os.path.join(
    os.environ.get("BUILD", os.path.join(os.path.dirname(tally.HERE), "build")),
    "linux", "tools", "testing", "kunit", "kunit_parser.py")), "no kernel tree (make tree)")
class TallyTest(unittest.TestCase):
    def tally(self, label, files):
        """tally.main on one boot directory holding files ({name: text}): (status, output)."""
        with tempfile.TemporaryDirectory() as d:
            for name, text in files.items():
                with open(os.path.join(d, name), "w") as f:
                    f.write(text)
            boots = os.path.join(d, "boots")
            with open(boots, "w") as f:
                f.write(f"{label}\t{d}\t-\n")
            out = io.StringIO()
            with redirect_stdout(out):
                rc = tally.main(["tally.py", boots])
        return rc, out.getvalue()

    def test_a_failed_test_shows_its_fail_lines(self):
        rc, out = self.tally("6:series/guest", {
            "guest.ktap": KTAP, "results.json": json.dumps(RESULTS), "vmrun.rc": "1\n",
            "console.log": ""})
        self.assertEqual(rc, 1)
        self.assertIn("FAIL  6:series/guest/test_bad: FAIL:   listed in /proc/kallsyms: got 0, "
                      "expected 1\n", out)
        self.assertIn("PASS  6:series/guest/test_good\n", out)
        self.assertIn("1 passed, 1 failed, 0 skipped", out)

    def test_a_host_suite_that_exits_nonzero_fails_whatever_its_ktap(self):
        results = {"name": "main", "sub_groups": [],
                   "test_cases": [{"name": "test_good", "status": "PASS"}]}
        files = {"host.ktap": "KTAP version 1\n1..1\nok 1 test_good\n",
                 "results.json": json.dumps(results), "vmrun.rc": "0\n", "host.rc": "1\n",
                 "console.log": ""}
        rc, out = self.tally("1:host/suite", files)
        self.assertEqual(rc, 1)
        self.assertIn("FAIL  1:host/suite: host suite: exited 1; see", out)
        self.assertIn("1 passed, 1 failed, 0 skipped", out)
        # The same suite exiting 0 passes: the failure above is the exit status's.
        rc, out = self.tally("1:host/suite", dict(files, **{"host.rc": "0\n"}))
        self.assertEqual(rc, 0)
        self.assertIn("1 passed, 0 failed, 0 skipped", out)

if __name__ == "__main__":
    unittest.main()
