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
