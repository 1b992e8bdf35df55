"""analysis/analyze on copies of the fixture runs: plots, tables, gaps, skips, errors."""
import json
import os
import unittest

import plots
import points
import runs
from tests import helpers

PLOTS = ["load_latency_icount", "load_ratio_icount", "call_cost_icount", "real_programs_icount",
         "load_latency_wall", "load_ratio_wall", "call_cost_wall", "real_programs_wall",
         "memory", "tlb"]


class AnalyzeTestCase(unittest.TestCase):
    """Runs analyze once per class on a scratch copy of FIXTURE (filtered by KEEP,
    EXTRA rows appended)."""
    FIXTURE = helpers.OK
    KEEP = None
    EXTRA = ()

    @classmethod
    def setUpClass(cls):
        cls.scratch = helpers.Scratch()
        cls.before = helpers.tree_files(cls.FIXTURE)
        cls.run_dir = cls.scratch.copy(cls.FIXTURE, keep=cls.KEEP, extra=cls.EXTRA)
        cls.proc = helpers.run_cli("analyze", cls.run_dir)

    @classmethod
    def tearDownClass(cls):
        cls.scratch.cleanup()

    def read(self, *parts):
        with open(os.path.join(self.run_dir, *parts)) as f:
            return f.read()

    def assertPlot(self, name):
        for ext, magic in (("png", b"\x89PNG"), ("pdf", b"%PDF")):
            path = os.path.join(self.run_dir, "plots", f"{name}.{ext}")
            self.assertTrue(os.path.exists(path), f"{path} not written")
            with open(path, "rb") as f:
                self.assertEqual(f.read(4), magic, path)
            self.assertGreater(os.path.getsize(path), 5000, path)
            self.assertIn(f"wrote {path}", self.proc.stdout)


class OkRunTest(AnalyzeTestCase):
    def test_exits_zero(self):
        self.assertEqual(self.proc.returncode, 0, self.proc.stderr)
        self.assertEqual(self.proc.stderr, "")

    def test_every_plot_in_png_and_pdf(self):
        for name in PLOTS:
            self.assertPlot(name)
        written = sorted(os.listdir(os.path.join(self.run_dir, "plots")))
        self.assertEqual(written, sorted(f"{n}.{e}" for n in PLOTS for e in ("pdf", "png")))

    def test_summary_markdown(self):
        md = self.read("tables", "summary.md")
        self.assertIn("# Benchmark summary: 20260101-120000-quick", md)
        self.assertIn("project commit: 0123456789abcdef0123456789abcdef01234567", md)
        row = next(line for line in md.splitlines() if line.startswith("| bpf_loop "))
        self.assertIn("guest instructions", row)
        self.assertIn("23.04 [23.04, 23.06] n=5", row)
        self.assertIn("+5.0 [+5.0, +5.0]", row)
        self.assertIn("## Missing", md)
        self.assertIn("Nothing is missing.", md)

    def test_unknown_workload_in_generic_table(self):
        md = self.read("tables", "summary.md")
        self.assertIn("### probe", md)
        self.assertIn("| kprobe_hit |  | hit_ns |", md)

    def test_summary_latex(self):
        tex = self.read("tables", "summary.tex")
        for needle in (r"\toprule", r"\midrule", r"\bottomrule", r"\begin{tabular}{llll",
                       r"bpf\_loop", r"95\% CI", r"\paragraph{Missing}"):
            self.assertIn(needle, tex)
        self.assertEqual(tex.count(r"\begin{tabular}"), tex.count(r"\end{tabular}"))
        self.assertNotIn("bpf_loop", tex)

    def test_no_missing_file_when_complete(self):
        self.assertFalse(os.path.exists(os.path.join(self.run_dir, "tables", "MISSING.md")))

    def test_fixture_untouched(self):
        self.assertEqual(helpers.tree_files(self.FIXTURE), self.before)

    def test_points_deterministic(self):
        run = runs.load(self.run_dir)
        a, b = points.Points(run), points.Points(run)
        for key in a.keys[::7]:
            self.assertEqual(a.compare(key, "series"), b.compare(key, "series"))


class ReplayTest(unittest.TestCase):
    """icount determinism repeats count once when identical, as boots when not."""

    def bpf_loop_n(self, run):
        p = points.Points(run)
        key = points.Key("icount", "call", "bpf_loop", "", "call_ns")
        return p.summary(key, "series").n, p.summary(p.select(clock="wall", case="bpf_loop")[0],
                                                     "series").n

    def test_identical_repeats_dropped(self):
        run = runs.load(helpers.OK)
        self.assertEqual(self.bpf_loop_n(run), (5, 10))

    def test_differing_repeats_pooled(self):
        run = runs.load(helpers.OK)
        run.metadata["determinism"]["identical"] = False
        self.assertEqual(self.bpf_loop_n(run), (10, 10))
        del run.metadata["determinism"]
        self.assertEqual(self.bpf_loop_n(run), (10, 10))


class FailedConfigurationTest(AnalyzeTestCase):
    FIXTURE = helpers.FAILED

    def test_exits_zero_and_names_the_gap(self):
        self.assertEqual(self.proc.returncode, 0, self.proc.stderr)
        self.assertIn("missing (", self.proc.stdout)
        self.assertIn("series-region: no samples at all", self.proc.stdout)
        self.assertIn("boot failed: series-region icount#0", self.proc.stdout)

    def test_other_plots_still_drawn(self):
        for name in PLOTS:
            self.assertPlot(name)

    def test_missing_file(self):
        text = self.read("tables", "MISSING.md")
        self.assertIn("series-region: no samples at all", text)
        self.assertIn("Kernel panic", text)

    def test_tables_mark_missing(self):
        md = self.read("tables", "summary.md")
        self.assertIn("series-region / vanilla [95% CI]", md)
        row = next(line for line in md.splitlines() if line.startswith("| bpf_loop "))
        self.assertIn("| missing |", row)
        self.assertIn("series-region: no samples at all", md.split("## Missing")[1])
        self.assertIn(r"series-region: no samples at all", self.read("tables", "summary.tex"))


class OnlyCallsTest(AnalyzeTestCase):
    """A run with nothing but call samples: the other plots are skipped, and said so."""
    KEEP = staticmethod(lambda r: r["workload"] == "call")

    def test_skips_named(self):
        self.assertEqual(self.proc.returncode, 0, self.proc.stderr)
        self.assertPlot("call_cost_icount")
        self.assertPlot("call_cost_wall")
        for name in ("load_latency_icount", "load_ratio_wall", "real_programs_icount",
                     "memory", "tlb"):
            self.assertIn(f"skipped plot {name}: no ", self.proc.stdout)
            self.assertFalse(os.path.exists(os.path.join(self.run_dir, "plots", f"{name}.png")))
        self.assertIn("not drawn", self.read("tables", "summary.md"))


class PartialRunTest(AnalyzeTestCase):
    """The baseline lacks wall loads and series lacks one load size under icount."""
    KEEP = staticmethod(lambda r: r["workload"] in ("load", "call") and not (
        r["config"] == "vanilla" and r["clock"] == "wall" and r["workload"] == "load") and not (
        r["config"] == "series" and r["case"] == "straight" and r["x"] == "512"))

    def test_ratio_without_baseline_skipped(self):
        self.assertEqual(self.proc.returncode, 0, self.proc.stderr)
        self.assertIn("skipped plot load_ratio_wall: no configuration to compare with baseline"
                      " vanilla", self.proc.stdout)
        self.assertPlot("load_latency_wall")
        self.assertPlot("load_ratio_icount")

    def test_gaps_named(self):
        text = self.read("tables", "MISSING.md")
        self.assertIn("vanilla: wall/load: no samples (all", text)
        self.assertIn("series: icount/load:", text)
        self.assertIn("straight x=512 load_ns", text)
        md = self.read("tables", "summary.md")
        self.assertIn("no baseline", md)


class UnforeseenDataTest(AnalyzeTestCase):
    """A clock, a call case and an x that no plot knows: tables and plots cope."""
    KEEP = staticmethod(lambda r: r["workload"] == "call")
    EXTRA = [["vanilla", "mttcg", "0", "load", "straight", "8", "load_ns", "ns", "0", "0", "1000"],
             ["series", "mttcg", "0", "load", "straight", "8", "load_ns", "ns", "0", "0", "1100"],
             ["vanilla", "mttcg", "0", "load", "straight", "big", "load_ns", "ns", "0", "0", "9"],
             ["vanilla", "icount", "0", "call", "new_kind", "", "call_ns", "ns", "0", "0", "3"]]

    def test_handled(self):
        self.assertEqual(self.proc.returncode, 0, self.proc.stderr)
        self.assertPlot("load_latency_mttcg")
        self.assertPlot("call_cost_icount")
        md = self.read("tables", "summary.md")
        self.assertIn("## Clock mttcg", md)
        self.assertIn("| straight | big | load_ns | ns | 9.00 [9.00, 9.00] n=1 | missing |", md)
        self.assertIn("| new_kind |", md)
        self.assertIn("series: icount/call: 1 of 10 points missing: new_kind call_ns",
                      self.read("tables", "MISSING.md"))


class BrokenPlotTest(unittest.TestCase):
    """A plot that raises is reported; the others are still drawn."""

    def test_other_plots_survive(self):
        scratch = helpers.Scratch()
        self.addCleanup(scratch.cleanup)
        path = scratch.copy(helpers.OK, keep=lambda r: r["workload"] in ("call", "tlb"))
        run = runs.load(path)

        def broken(self, clock):
            raise RuntimeError("deliberate")
        original = plots.Plotter.tlb
        plots.Plotter.tlb = broken
        try:
            written, skipped, errors = plots.make_all(run, points.Points(run),
                                                      os.path.join(path, "plots"))
        finally:
            plots.Plotter.tlb = original
        self.assertEqual([n for n, _ in errors], ["tlb"])
        self.assertIn("RuntimeError: deliberate", errors[0][1])
        self.assertIn("call_cost_icount", written)
        self.assertTrue(os.path.exists(os.path.join(path, "plots", "call_cost_wall.pdf")))


class CliTest(unittest.TestCase):
    def setUp(self):
        self.scratch = helpers.Scratch()

    def tearDown(self):
        self.scratch.cleanup()

    def test_default_is_latest_under_results(self):
        self.scratch.copy(helpers.OK, keep=lambda r: r["workload"] == "call")
        newer = self.scratch.copy(helpers.OK, name="20260201-000000-quick",
                                  keep=lambda r: r["workload"] == "call")
        proc = helpers.run_cli("analyze", "--results", self.scratch.root)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn(f"run {newer}", proc.stdout)
        self.assertTrue(os.path.exists(os.path.join(newer, "tables", "summary.md")))

    def test_missing_dir_is_a_clear_error(self):
        path = os.path.join(self.scratch.root, "20990101-000000-quick")
        proc = helpers.run_cli("analyze", path)
        self.assertEqual(proc.returncode, 2)
        self.assertIn(f"analysis/analyze: error: {path}: no such run directory", proc.stderr)
        self.assertNotIn("Traceback", proc.stderr)

    def test_malformed_is_a_clear_error(self):
        path = self.scratch.copy(helpers.MALFORMED)
        proc = helpers.run_cli("analyze", path)
        self.assertEqual(proc.returncode, 2)
        self.assertIn("samples.csv:1: bad header", proc.stderr)
        self.assertNotIn("Traceback", proc.stderr)
        self.assertFalse(os.path.exists(os.path.join(path, "plots")))

    def test_no_runs_is_a_clear_error(self):
        proc = helpers.run_cli("analyze", "--results", self.scratch.root)
        self.assertEqual(proc.returncode, 2)
        self.assertIn("no runs", proc.stderr)


SIZING_FILES = ["tables/sizing.md", "tables/sizing.json", "plots/sizing.png", "plots/sizing.pdf"]


class NoFillSamplesTest(AnalyzeTestCase):
    """A run without fill samples: sizing says so in one line and writes nothing."""
    KEEP = staticmethod(lambda r: r["workload"] == "call")

    def test_sizing_writes_nothing(self):
        self.assertEqual(self.proc.returncode, 0, self.proc.stderr)
        self.assertEqual(self.proc.stdout.count("sizing"), 1)
        self.assertIn("sizing: no fill samples in this run; nothing written\n", self.proc.stdout)
        for name in SIZING_FILES:
            self.assertFalse(os.path.exists(os.path.join(self.run_dir, name)), name)


class FillRunTest(AnalyzeTestCase):
    """Fill configurations, and a pair: series against series-region-off."""
    FIXTURE = helpers.FILL

    def test_exits_zero(self):
        self.assertEqual(self.proc.returncode, 0, self.proc.stderr)
        self.assertEqual(self.proc.stderr, "")
        self.assertIn("212 fill samples for sizing", self.proc.stdout)

    def test_ordinary_plots_and_sizing_written(self):
        pair = [f"load_ratio_series_over_series-region-off_{c}" for c in ("icount", "wall")]
        for name in PLOTS + pair + ["sizing"]:
            self.assertPlot(name)
        written = sorted(os.listdir(os.path.join(self.run_dir, "plots")))
        self.assertEqual(written, sorted(f"{n}.{e}" for n in PLOTS + pair + ["sizing"]
                                         for e in ("pdf", "png")))
        for name in SIZING_FILES[:2]:
            self.assertIn(f"wrote {os.path.join(self.run_dir, name)}", self.proc.stdout)

    def test_fill_configurations_absent_from_tables_and_missing(self):
        md = self.read("tables", "summary.md")
        for header in (line for line in md.splitlines() if line.startswith("| case ")):
            self.assertNotIn("series-region-4m", header)
            self.assertNotIn("series-region-32m", header)
        self.assertNotIn("### fill", md)
        self.assertIn("Nothing is missing.", md)
        self.assertFalse(os.path.exists(os.path.join(self.run_dir, "tables", "MISSING.md")))
        self.assertNotIn("missing (", self.proc.stdout)

    def test_pair_columns(self):
        md = self.read("tables", "summary.md")
        call = next(line for line in md.splitlines() if line.startswith("| case ")
                    and "- vanilla" in line)
        self.assertIn("| series / series-region-off [95% CI] | series - vanilla [95% CI]", call)
        # The differences, then (icount) the ratios round by round, the pair's last.
        self.assertIn("| series - series-region-off [95% CI] | series / vanilla by round", call)
        self.assertTrue(call.endswith("| series / series-region-off by round [>=95% CI] |"))
        self.assertIn("also compared: series with series-region-off", md)

    def test_sizing_json(self):
        with open(os.path.join(self.run_dir, "tables", "sizing.json")) as f:
            result = json.load(f)
        self.assertEqual((result["fitted_mib"], result["checked_mib"]), ([4, 8, 16], 32))
        self.assertEqual(result["fit"]["p75"]["objects_per_pack"]["mean"], 992)
        self.assertTrue(all(c["within_tolerance"] for c in result["check"]))
        self.assertIn("## Check at 32 MiB (not fitted)", self.read("tables", "sizing.md"))


class FillBootFailedTest(AnalyzeTestCase):
    """A fill configuration without fill samples is missing; the others still model."""
    FIXTURE = helpers.FILL
    KEEP = staticmethod(lambda r: r["config"] != "series-region-8m")

    def test_named_missing_and_modelled_without_it(self):
        self.assertEqual(self.proc.returncode, 0, self.proc.stderr)
        text = self.read("tables", "MISSING.md")
        self.assertIn("series-region-8m: no fill samples", text)
        self.assertNotIn("no samples at all", text)
        self.assertNotIn("series-region-4m", text)
        with open(os.path.join(self.run_dir, "tables", "sizing.json")) as f:
            result = json.load(f)
        self.assertEqual((result["fitted_mib"], result["checked_mib"]), ([4, 16], 32))
        self.assertIn("fill configurations without fill samples: series-region-8m",
                      result["notes"])


class SizingErrorTest(AnalyzeTestCase):
    """Fill rows the model cannot use: exit 1, said on stderr, everything else written."""
    FIXTURE = helpers.FILL
    EXTRA = [["series-region-4m", "wall", "0", "fill", "p50", "4M", "objects", "count", "0", "0",
              "1"]]

    def test_error_named(self):
        self.assertEqual(self.proc.returncode, 1)
        self.assertIn("analysis/analyze: error: sizing: samples.csv: a fill row of"
                      " series-region-4m has x '4M'", self.proc.stderr)
        self.assertNotIn("Traceback", self.proc.stderr)
        self.assertPlot("call_cost_icount")
        self.assertTrue(os.path.exists(os.path.join(self.run_dir, "tables", "summary.md")))
        self.assertFalse(os.path.exists(os.path.join(self.run_dir, "tables", "sizing.md")))
