"""selftests.py expect-cfi: CFI failures belong to the test between whose
kernel-log marks they came (tests/guest/run-expect-cfi), whatever the clocks."""
import io
import json
import os
import tempfile
import unittest
from contextlib import redirect_stdout

import selftests_report

CONSOLE = """\
[    1.000000] ktest: begin expect-cfi for_each
[    1.100000] CFI failure at bpf_for_each_hash_elem+0xa4/0x124 (target: bpf_prog_1_check_hash_elem+0x0/0x98; expected type: 0x9e4709a9)
[    1.100001] WARNING: CPU: 0 PID: 77 at bpf_for_each_hash_elem+0xa4/0x124
[    3.200000] ktest: end expect-cfi for_each rc=0
[    3.300000] ktest: begin expect-cfi jit_probe_mem
[    3.100000] CFI failure at bpf_for_each_array_elem+0xc0/0xec (target: bpf_prog_2_check_map_elem+0x0/0x50; expected type: 0x9e4709a9)
[    5.400000] ktest: end expect-cfi jit_probe_mem rc=0
[    5.500000] ktest: begin expect-cfi timer_lockup
[    5.600000] random line
[    7.700000] ktest: end expect-cfi timer_lockup rc=0
[    7.800000] CFI failure at bpf_timer_cb+0x9c/0xc4 (target: bpf_prog_3_timer_cb1+0x0/0xb0; expected type: 0x9e4709a9)
[    7.900000] ktest: begin expect-cfi dummy_st_ops
"""

LOG = """\
#104     for_each:OK
#124     jit_probe_mem:OK
#401     timer_lockup:OK
"""


class ExpectCfiTest(unittest.TestCase):
    def test_windows_follow_the_marks_not_the_timestamps(self):
        w = selftests_report.expect_cfi_windows(CONSOLE)
        self.assertEqual(len(w["for_each"]), 2)
        # A line inside jit_probe_mem's marks is its, even with an earlier stamp.
        self.assertEqual(len(w["jit_probe_mem"]), 1)
        # A report after a test's end mark is no test's.
        self.assertEqual(w["timer_lockup"], [])
        # A test whose end mark never came keeps what followed its begin.
        self.assertEqual(w["dummy_st_ops"], [])

    def run_check(self, names):
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, "out"))
            with open(os.path.join(d, "console.log"), "w") as f:
                f.write(CONSOLE)
            with open(os.path.join(d, "out", "test_progs.log"), "w") as f:
                f.write(LOG)
            out = io.StringIO()
            with redirect_stdout(out):
                rc = selftests_report.cmd_expect_cfi(d, names, d)
            with open(os.path.join(d, "results.json")) as f:
                results = json.load(f)
        return rc, out.getvalue(), {c["name"].split()[0]: c["status"] for c in results["test_cases"]}

    def test_a_test_with_a_cfi_failure_in_its_window_passes(self):
        rc, out, cases = self.run_check(["for_each"])
        self.assertEqual(rc, 0)
        self.assertEqual(cases, {"for_each": "PASS"})
        self.assertIn("1 CFI failure(s), first: CFI failure at bpf_for_each_hash_elem", out)

    def test_a_clean_window_or_a_test_that_never_ran_fails(self):
        rc, out, cases = self.run_check(["timer_lockup", "dummy_st_ops", "bpf_loop"])
        self.assertEqual(rc, 1)
        self.assertEqual(cases, {"timer_lockup": "FAIL", "dummy_st_ops": "FAIL", "bpf_loop": "FAIL"})
        self.assertIn("timer_lockup: test_progs OK, console clean while it ran", out)
        self.assertIn("bpf_loop: did not run", out)

    def test_a_directory_without_a_console_is_named(self):
        with tempfile.TemporaryDirectory() as d:
            with self.assertRaises(SystemExit) as e:
                selftests_report.cmd_expect_cfi(d, ["for_each"], None)
        self.assertIn("console.log does not exist", str(e.exception))


if __name__ == "__main__":
    unittest.main()
