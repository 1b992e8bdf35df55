"""tests/security.py: the attack matrix from the boots of tests/security.plan."""
import io
import os
import shutil
import tempfile
import unittest
from contextlib import redirect_stderr

import security

KTAP_SERIES = """KTAP version 1
1..2
# mode enforce, linear alias sealed 1
# matrix\tstage\tone-function\tstage: faulted\tloaded\t0x1234\t-
# matrix\texec\tone-function\texec: landed\tfailed: errno 524\t-\tverification_failures +1
# matrix\trw\tlive\trw: refused -1\tlive\t0x1234\trefused_changes +1
ok 1 test_jit_wp
# single-function program, bpf_jit_alloc_rw: 1 injection points, 1 loads failed, 0 absorbed
# ok: a load with nothing injected succeeds
ok 2 test_jit_wp_fail
"""
CONSOLE_SERIES = """[    1.0] ktest: begin test_jit_wp
[    1.1] ktest: attack stage one-function
[    1.2] bpf_jit_wp_attack: stage: faulted
[    1.3] ktest: attack exec one-function
[    1.4] bpf_jit_wp_attack: exec: landed
[    1.5] bpf_jit_wp: executable image at 000000007abffda5 differs from its sealed copy
[    1.6] ktest: attack rw live
[    1.7] WARNING: CPU: 0 PID: 1 at somewhere
[    1.8] ktest: end test_jit_wp rc=0
"""
KTAP_VANILLA = """KTAP version 1
1..1
# no /sys/kernel/debug/bpf_jit/wp_attack: kernel without the series' test hooks
ok 1 test_jit_wp # SKIP no /sys/kernel/debug/bpf_jit/wp_attack: kernel without the series' test hooks
"""


def boot(root, n, config, variant, args, ktap, console):
    d = os.path.join(root, f"{n}-{config}-guest")
    os.makedirs(d)
    with open(os.path.join(d, "guest.ktap"), "w") as f:
        f.write(ktap)
    with open(os.path.join(d, "console.log"), "w") as f:
        f.write(console)
    with open(os.path.join(d, "env"), "w") as f:
        f.write(f"EXPECT_RELEASE=x\nVARIANT={variant}\nBOOT_ARGS={args}\n")
    with open(os.path.join(root, "boots"), "a") as f:
        f.write(f"{n}:{config}/guest\t{d}\t-\n")


class CollectTest(unittest.TestCase):
    def setUp(self):
        self.root = tempfile.mkdtemp()
        boot(self.root, 1, "vanilla", "vanilla", "", KTAP_VANILLA, "")
        boot(self.root, 2, "series", "series", "", KTAP_SERIES, CONSOLE_SERIES)
        boot(self.root, 3, "series-wp-off", "series", "bpf_jit_wp=off",
             KTAP_SERIES.replace("# mode enforce,", "# mode off,"), "")

    def tearDown(self):
        shutil.rmtree(self.root)

    def test_rows(self):
        matrix, checks, configs, _ = security.collect_rows(self.root)
        self.assertEqual(configs["series-wp-off"], ("series", "bpf_jit_wp=off"))
        vanilla = [r for r in matrix if r["config"] == "vanilla"]
        self.assertEqual([r["gadget"] for r in vanilla], ["no test hooks in this kernel"])
        self.assertEqual(vanilla[0]["mode"], "none (6.12)")
        series = {r["attack"]: r for r in matrix if r["config"] == "series"}
        self.assertEqual(series["stage"]["gadget"], "faulted")
        self.assertEqual(series["stage"]["console"], "clean")
        self.assertEqual(series["exec"]["load"], "failed: errno 524")
        self.assertEqual(series["exec"]["counters"], "verification_failures +1")
        self.assertEqual(series["exec"]["console"],
                         "reported: bpf_jit_wp: executable image differs from its sealed copy")
        self.assertTrue(series["rw"]["console"].startswith("BAD: WARNING:"))
        self.assertEqual({r["mode"] for r in matrix if r["config"] == "series-wp-off"}, {"off"})
        self.assertEqual([(c["config"], c["check"], c["result"]) for c in checks],
                         [("series", "test_jit_wp_fail", "passed"),
                          ("series-wp-off", "test_jit_wp_fail", "passed")])
        self.assertIn("1 injection points", checks[0]["summary"])

    def test_table_from_the_tsv_alone(self):
        out = tempfile.mkdtemp()
        try:
            matrix, checks, _, _ = security.collect_rows(self.root)
            security.write_tsv(os.path.join(out, "matrix.tsv"), security.MATRIX, matrix)
            security.write_tsv(os.path.join(out, "checks.tsv"), security.CHECKS, checks)
            with open(security.table(out)) as f:
                text = f.read()
            self.assertIn("| attack | victim | vanilla (none (6.12)) | series (enforce) |"
                          " series-wp-off (off) |", text)
            self.assertIn("| exec | one-function | no test hooks in this kernel | landed;"
                          " failed: errno 524; returned -; verification_failures +1;"
                          " reported: bpf_jit_wp: executable image differs from its sealed"
                          " copy |", text)
        finally:
            shutil.rmtree(out)

    def test_the_kernel_reported_mode_must_be_the_boot_one(self):
        path = os.path.join(self.root, "3-series-wp-off-guest", "guest.ktap")
        with open(path) as f:
            text = f.read()
        with open(path, "w") as f:
            f.write(text.replace("# mode off,", "# mode enforce,"))
        with self.assertRaisesRegex(security.Error, "booted for bpf_jit_wp=off, the kernel"
                                    " reports enforce"):
            security.collect_rows(self.root)

    def test_a_failed_boot_is_named(self):
        os.unlink(os.path.join(self.root, "2-series-guest", "guest.ktap"))
        with self.assertRaisesRegex(security.Error, "no guest.ktap"):
            security.collect_rows(self.root)

    def test_no_boots_is_one_line(self):
        err = io.StringIO()
        with redirect_stderr(err):
            rc = security.main(["collect", os.path.join(self.root, "nope"), self.root])
        self.assertEqual(rc, 2)
        self.assertEqual(err.getvalue().count("\n"), 1)
        self.assertIn("no boots file", err.getvalue())


if __name__ == "__main__":
    unittest.main()
