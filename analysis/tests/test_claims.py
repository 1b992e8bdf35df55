"""analysis/claims: the load-latency sentence of a pair, from a run."""
import unittest

import claims
import runs
from tests import helpers


class ClaimsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.ok = helpers.run_cli("claims", helpers.OK, "--pair", "series/vanilla")

    def test_sentence(self):
        self.assertEqual(self.ok.returncode, 0, self.ok.stderr)
        out = self.ok.stdout
        self.assertTrue(out.startswith(
            "Run 20260101-120000-quick (icount, "), out[:80])
        self.assertIn("`series` over `vanilla`, load latency, ratio of medians"
                      " [bootstrap 95% CI]: straight 8 ", out)
        self.assertRegex(out, r"straight 4096 1\.0\d\d \[1\.0\d\d, 1\.0\d\d\] \(by round ")
        self.assertRegex(out, r"Largest median ratio: \d\.\d\d\d \([a-z_0-9 ]+\); upper bounds"
                              r" above 1\.05: ")

    def test_the_report_gives_the_same_figure(self):
        report = helpers.run_cli("report", helpers.OK).stdout
        line = next(x for x in report.splitlines()
                    if x.split()[:2] == ["straight", "4096"])
        figure = " ".join(line.split()[2:5])   # icount: the first table's series cell
        self.assertIn(f"straight 4096 {figure}", self.ok.stdout)

    def test_bad_pair(self):
        bad = helpers.run_cli("claims", helpers.OK, "--pair", "series")
        self.assertEqual(bad.returncode, 2)
        self.assertIn("--pair wants CONFIG/REFERENCE", bad.stderr)
        self.assertEqual(bad.stderr.count("\n"), 4, bad.stderr)   # usage (3 lines) + error
        nope = helpers.run_cli("claims", helpers.OK, "--pair", "series/nope")
        self.assertEqual(nope.returncode, 2)
        self.assertEqual(nope.stderr.strip(), "analysis/claims: error: run 20260101-120000-quick"
                         " has no configuration 'nope' (it has: vanilla, series)")

    def test_sizing_and_conc_claims(self):
        fill = helpers.run_cli("claims", helpers.FILL, "--claim", "sizing")
        self.assertEqual(fill.returncode, 0, fill.stderr)
        self.assertIn("predicted objects before the first failed load at 128 MiB (63 packs for"
                      " programs, 63 in all): p50 229,320", fill.stdout)
        none = helpers.run_cli("claims", helpers.OK, "--claim", "conc:series/vanilla")
        self.assertEqual(none.returncode, 2)
        self.assertIn("has no conc samples", none.stderr)
        bad = helpers.run_cli("claims", helpers.OK, "--claim", "speed")
        self.assertEqual(bad.returncode, 2)
        self.assertIn("unknown kind 'speed' (valid: load, sizing, tune, conc, pmu)", bad.stderr)
        tuned = helpers.run_cli("claims", helpers.FILL, "--claim", "tune")
        self.assertEqual(tuned.returncode, 0, tuned.stderr)
        self.assertIn("bpf_jit_region=1024M", tuned.stdout)

    def test_pmu_claim(self):
        def row(config, metric, rnd, value, boot=0):
            return runs.Sample(config, "icount", boot, "load", "straight", "8", metric, "ns",
                               rnd, 0, value)
        rows = [row("series", "load_ns", 1, "100"), row("series", "load_instructions", 1, "90"),
                row("series", "load_ns", 2, "100"), row("series", "load_instructions", 2, "100"),
                row("vanilla", "load_ns", 1, "200"), row("vanilla", "load_instructions", 1, "201"),
                # a repeat boot is not counted twice
                row("series", "load_ns", 1, "100", boot=1),
                row("series", "load_instructions", 1, "90", boot=1)]
        run = type("Run", (), {"run_id": "r", "measured": rows})()
        self.assertEqual(claims.pmu_sentence(run),
                         "in run r `load_ns` exceeds the count in 1 of 3 rounds, by up to 10"
                         " (straight 8, `series`, round 1), and the median of count / `load_ns`"
                         " is 1.000")
        none = helpers.run_cli("claims", helpers.OK, "--claim", "pmu")
        self.assertEqual(none.returncode, 2)
        self.assertIn("has no icount load_instructions beside load_ns", none.stderr)


if __name__ == "__main__":
    unittest.main()
