"""analysis/report: the terminal summary of a run."""
import unittest

from tests import helpers


class ReportTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.ok = helpers.run_cli("report", helpers.OK)
        cls.failed = helpers.run_cli("report", helpers.FAILED)

    def test_header(self):
        self.assertEqual(self.ok.returncode, 0, self.ok.stderr)
        out = self.ok.stdout
        self.assertIn("run 20260101-120000-quick", out)
        self.assertIn("configurations: vanilla (baseline, variant vanilla); series", out)
        self.assertIn("boots: 8 ok, 0 failed", out)
        self.assertIn("kvm: unavailable: x86_64 host cannot run an arm64 guest under KVM", out)
        self.assertIn("determinism (icount): identical", out)
        self.assertIn("missing: nothing", out)
        self.assertIn("intervals: [95% CI] is a percentile bootstrap of the ratio (or difference)"
                      " of medians, resampling rounds under icount and whole boots under other"
                      " clocks", out)

    def test_call_delta(self):
        lines = self.ok.stdout.splitlines()
        start = lines.index("  icount (median guest instructions per call):")
        bpf_loop = next(line for line in lines[start:] if line.strip().startswith("bpf_loop"))
        self.assertIn("23.04", bpf_loop)
        self.assertIn("28.04 (+5.0 instructions per call, CI [+5.0, +5.0])", bpf_loop)

    def test_load_ratios_per_clock(self):
        out = self.ok.stdout
        self.assertIn("load latency (BPF_PROG_LOAD): ratio of medians to vanilla [95% CI]", out)
        self.assertIn("  icount (guest instructions):", out)
        self.assertIn("  wall (ns):", out)
        self.assertRegex(out, r"straight +4096 +1\.0[34]\d \[1\.0\d\d, 1\.0\d\d\]")

    def test_failed_configuration(self):
        self.assertEqual(self.failed.returncode, 0, self.failed.stderr)
        out = self.failed.stdout
        self.assertIn("boots: 8 ok, 4 failed", out)
        self.assertIn("FAILED series-region icount#0: vm/run exited 125", out)
        self.assertIn("series-region: no samples at all", out)

    def test_error(self):
        proc = helpers.run_cli("report", helpers.NOMETA)
        self.assertEqual(proc.returncode, 2)
        self.assertIn("metadata.json: missing", proc.stderr)
        self.assertNotIn("Traceback", proc.stderr)


class FillReportTest(unittest.TestCase):
    """The fill fixture: a pair (series against series-region-off) and the sizing lines."""

    @classmethod
    def setUpClass(cls):
        cls.proc = helpers.run_cli("report", helpers.FILL)
        cls.out = cls.proc.stdout

    def test_ok(self):
        self.assertEqual(self.proc.returncode, 0, self.proc.stderr)
        self.assertIn("missing: nothing", self.out)
        self.assertIn("series-region-4m (fill only, variant series", self.out)
        self.assertIn("also compared: series with series-region-off", self.out)

    def test_pair_load_ratio_after_the_baseline_block(self):
        title = ("load latency (BPF_PROG_LOAD): ratio of medians series / series-region-off"
                 " [95% CI]")
        self.assertIn(title, self.out)
        self.assertLess(self.out.index("ratio of medians to vanilla"), self.out.index(title))
        block = self.out[self.out.index(title):]
        self.assertRegex(block, r"straight +4096 +1\.01\d \[1\.0\d\d, 1\.0\d\d\]")

    def test_pair_call_difference(self):
        title = "cost per call: series and its difference to series-region-off [95% CI]"
        self.assertIn(title, self.out)
        block = self.out[self.out.index(title):]
        line = next(x for x in block.splitlines() if x.strip().startswith("bpf_loop"))
        self.assertIn("28.04 (+0.00 instructions per call", line)
        self.assertIn(": no difference measurable at this n)", line)

    def test_a_measured_difference_is_not_called_none(self):
        start = self.out.index("cost per call: median, and difference to vanilla")
        bpf_loop = next(x for x in self.out[start:].splitlines()
                        if x.strip().startswith("bpf_loop"))
        self.assertIn("CI [+5.0, +5.0])", bpf_loop)
        self.assertNotIn("no difference measurable", bpf_loop)

    def test_sizing_lines(self):
        self.assertIn("sizing (fill workload): fitted on 4 MiB, 8 MiB, 16 MiB; checked against"
                      " 32 MiB (measured, not fitted)", self.out)
        self.assertIn("predicted at 128 MiB (63 packs for programs): p50 229,320", self.out)
        self.assertIn("predicted at 1 GiB (511 packs for programs): p50 1,860,040", self.out)
        self.assertIn("check at 32 MiB: p50 +0.00%, p75 +0.00%, largest +0.00%,"
                      " trampoline +0.00%, struct_ops +0.01%, mix +0.05%", self.out)
        self.assertIn("All 7 checked predictions are within 5%.", self.out)

    def test_no_sizing_lines_without_fill(self):
        self.assertNotIn("sizing", helpers.run_cli("report", helpers.OK).stdout)
