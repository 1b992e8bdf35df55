"""tables and labels: escaping, number formats, and the rows of a small in-memory run."""
import os
import shutil
import subprocess
import tempfile
import unittest

import labels
import missing
import points
import runs
import tables


def sample(config, case, value, metric="load_ns", unit="ns", x="8", clock="icount",
           workload="load", rnd=0):
    return runs.Sample(config, clock, 0, workload, case, x, metric, unit, rnd, False, value)


def small_run():
    meta = {"run_id": "20260101-000000-t", "baseline": "base_1",
            "configurations": {"base_1": {"variant": "vanilla", "boot_args": ""},
                               "a&b%c": {"variant": "series", "boot_args": "x=1 #y"}},
            "boots": [{"config": "a&b%c", "clock": "wall", "boot": 0, "status": "failed",
                       "reason": "guest said $HOME_{x} ~ ^"}]}
    s = [sample("base_1", "real:x%y#z", v, rnd=i) for i, v in enumerate([10.0, 11.0, 12.0])]
    s += [sample("a&b%c", "real:x%y#z", v, rnd=i) for i, v in enumerate([20.0, 22.0, 24.0])]
    s += [sample("base_1", "[odd]", 5.0, workload="weird|w", metric="m<1>", unit="count")]
    return runs.Run("/nonexistent", meta, s)


class EscapeTest(unittest.TestCase):
    def test_tex_escape(self):
        self.assertEqual(tables.tex_escape(r"a_b&c%d$e#f{g}h~i^j\k<l>"),
                         r"a\_b\&c\%d\$e\#f\{g\}h\textasciitilde{}i\textasciicircum{}j"
                         r"\textbackslash{}k\textless{}l\textgreater{}")

    def test_tex_row_leading_bracket(self):
        self.assertTrue(tables.tex_row(["[x]", "1"]).startswith("{}[x]"))

    def test_md_escape(self):
        self.assertEqual(tables.md_escape("a|b\nc"), "a\\|b c")


class LabelsTest(unittest.TestCase):
    def test_icount_ns_is_instructions(self):
        self.assertEqual(labels.unit("ns", "icount"), "guest instructions")
        self.assertEqual(labels.unit("ns", "wall"), "ns")
        self.assertEqual(labels.short_unit("ns", "icount"), "instructions")
        self.assertEqual(labels.unit("bytes", "icount"), "bytes")

    def test_numbers(self):
        self.assertEqual(labels.number(23.04), "23.04")
        self.assertEqual(labels.number(18.0), "18.00")
        self.assertEqual(labels.number(3.0, "count"), "3")
        self.assertEqual(labels.number(186913.2), "186913")
        self.assertEqual(labels.number(None), "-")
        self.assertEqual(labels.delta(5.0000001), "+5.0")
        self.assertEqual(labels.delta(-0.004), "-0.00")
        self.assertEqual(labels.ratio(1.0), "1.000")
        self.assertEqual(labels.interval(None), "n/a")


class NoneMeasurableTest(unittest.TestCase):
    def test_interval_containing_the_null(self):
        self.assertTrue(labels.none_measurable((0.98, 1.02), 1.0))
        self.assertTrue(labels.none_measurable((-1.0, 0.0), 0.0))
        self.assertTrue(labels.none_measurable((1.0, 1.0), 1.0))
        self.assertFalse(labels.none_measurable((1.001, 1.05), 1.0))
        self.assertFalse(labels.none_measurable((-3.0, -0.5), 0.0))
        self.assertFalse(labels.none_measurable(None, 0.0))


class SectionsTest(unittest.TestCase):
    def setUp(self):
        self.run = small_run()
        self.points = points.Points(self.run)

    def test_rows(self):
        secs = tables.sections(self.run, self.points)
        (clock, workload, header, rows), (_, weird, _, wrows) = secs
        self.assertEqual((clock, workload), ("icount", "load"))
        self.assertEqual(header[4:], ["base_1", "a&b%c", "a&b%c / base_1 [95% CI]",
                                      "a&b%c / base_1 by round [>=95% CI]"])
        self.assertEqual(rows[0][:4], ["real:x%y#z", "8", "load_ns", "guest instructions"])
        self.assertEqual(rows[0][4], "11.00 [10.10, 11.90] n=3")
        self.assertTrue(rows[0][6].startswith("2.000 ["))
        # Three rounds paired: every ratio 2, too few for an order-statistic interval.
        self.assertEqual(rows[0][7], "2.000 n/a n=3")
        self.assertEqual(weird, "weird|w")
        self.assertEqual(wrows[0][4:], ["5 [5, 5] n=1", "missing", "missing", "missing"])

    def test_markdown_and_latex_escape_names(self):
        secs = tables.sections(self.run, self.points)
        gaps = ["a&b%c: no samples at all"]
        md = tables.markdown(self.run, secs, gaps)
        self.assertIn("### weird|w", md)
        self.assertIn("| [odd] | 8 | m<1> |", md)
        tex = tables.latex(self.run, secs, gaps)
        self.assertIn(r"real:x\%y\#z", tex)
        self.assertIn(r"a\&b\%c / base\_1", tex)
        self.assertIn(r"{}[odd]", tex)

    @unittest.skipUnless(shutil.which("pdflatex"), "pdflatex not installed")
    def test_latex_compiles(self):
        secs = tables.sections(self.run, self.points)
        body = tables.latex(self.run, secs, ["a&b%c: guest said $HOME_{x} ~ ^"])
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "t.tex"), "w") as f:
                f.write("\\documentclass{article}\\usepackage{booktabs}\\begin{document}\n"
                        + body + "\n\\end{document}\n")
            proc = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error",
                                   "t.tex"], cwd=d, capture_output=True, text=True, timeout=120)
        self.assertEqual(proc.returncode, 0, proc.stdout[-2000:])


def pair_run():
    """base, a, b under icount (factors 1, 2, 1.6: call 10 x factor + 0, 1, 2; load 100 x
    factor), the pair (a, b), and a fill configuration with a fill row."""
    meta = {"run_id": "20260101-000000-p", "baseline": "base",
            "configurations": {c: {"variant": "series"} for c in ("base", "a", "b", "fill-4m")},
            "boots": [], "pairs": [["a", "b"]], "fill_configurations": ["fill-4m"]}
    s = []
    for config, factor in (("base", 1.0), ("a", 2.0), ("b", 1.6)):
        s += [sample(config, "bpf_loop", 10.0 * factor + i, metric="call_ns", x="",
                     workload="call", rnd=i) for i in range(3)]
        s += [sample(config, "straight", 100.0 * factor, rnd=i) for i in range(3)]
    s.append(runs.Sample("fill-4m", "wall", 0, "fill", "p50", "4", "objects", "count", 0,
                         False, 3640.0))
    return runs.Run("/nonexistent", meta, s)


class PairedByRoundTest(unittest.TestCase):
    def run_of(self, clock, base, other):
        meta = {"run_id": "20260101-000000-r", "baseline": "base",
                "configurations": {"base": {"variant": "series"}, "a": {"variant": "series"}},
                "boots": []}
        s = [sample("base", "straight", v, rnd=i, clock=clock) for i, v in enumerate(base)]
        s += [sample("a", "straight", v, rnd=i, clock=clock) for i, v in enumerate(other)]
        return points.Points(runs.Run("/nonexistent", meta, s))

    def test_shared_outlier_cancels_round_by_round(self):
        base = [100, 101, 99, 100, 160, 100, 102, 100, 98, 100, 101]
        other = [v * 1.02 for v in base]
        other[7] *= 1.01                     # one round of its own
        pts = self.run_of("icount", base, other)
        key = pts.select(workload="load")[0]
        pooled = pts.compare(key, "a")
        paired = pts.paired(key, "a")
        self.assertAlmostEqual(paired.ratio, 1.02)
        self.assertEqual(paired.n, 11)
        self.assertAlmostEqual(paired.ratio_ci[0], 1.02)
        self.assertAlmostEqual(paired.ratio_ci[1], 1.02)   # x(10) of 11: the 1.0302 is x(11)
        self.assertAlmostEqual(paired.coverage, 1 - 2 * 12 / 2048)
        self.assertGreater(pooled.ratio_ci[1] - pooled.ratio_ci[0], 0.01)

    def test_wall_clock_rounds_are_not_paired(self):
        pts = self.run_of("wall", [1.0] * 7, [2.0] * 7)
        key = pts.select(workload="load")[0]
        self.assertIsNone(pts.paired(key, "a"))
        self.assertIsNone(pts.paired(key, "base"))


class PairTest(unittest.TestCase):
    def setUp(self):
        self.run = pair_run()
        self.points = points.Points(self.run)

    def test_compare_with_a_reference(self):
        key = self.points.select(workload="load")[0]
        self.assertEqual(self.points.compare(key, "a").ratio, 2.0)
        self.assertEqual(self.points.compare(key, "a", "base"), self.points.compare(key, "a"))
        ab = self.points.compare(key, "a", "b")
        self.assertAlmostEqual(ab.ratio, 2.0 / 1.6)
        self.assertAlmostEqual(ab.delta, 40.0)
        self.assertEqual(ab.ratio_ci, (ab.ratio, ab.ratio))  # constant samples: exact
        self.assertIsNone(self.points.compare(key, "a", "a"))
        self.assertIsNone(self.points.compare(key, "a", "nobody"))
        # memoised per (key, config, reference)
        self.assertIn((key, "a", "b"), self.points._comparisons)
        self.assertIn((key, "a", "base"), self.points._comparisons)

    def test_pair_columns_after_the_baseline_ones(self):
        secs = {w: (header, rows) for _, w, header, rows in tables.sections(self.run, self.points)}
        header, rows = secs["call"]
        self.assertEqual(header[4:], ["base", "a", "b", "a / base [95% CI]", "b / base [95% CI]",
                                      "a / b [95% CI]", "a - base [95% CI]", "b - base [95% CI]",
                                      "a - b [95% CI]", "a / base by round [>=95% CI]",
                                      "b / base by round [>=95% CI]",
                                      "a / b by round [>=95% CI]"])
        self.assertTrue(rows[0][9].startswith("1.235 ["), rows[0])  # 21 / 17
        self.assertTrue(rows[0][12].startswith("+4.0 ["), rows[0])  # medians 21 - 17
        header, rows = secs["load"]
        self.assertEqual(header[-4], "a / b [95% CI]")
        self.assertEqual(rows[0][-4], "1.250 [1.250, 1.250]")
        self.assertEqual(rows[0][-1], "1.250 n/a n=3")

    def test_fill_configuration_has_no_column_and_no_row(self):
        secs = tables.sections(self.run, self.points)
        self.assertEqual([w for _, w, _, _ in secs], ["call", "load"])
        for _, _, header, _ in secs:
            self.assertFalse(any("fill-4m" in h for h in header))
        self.assertEqual(self.run.clocks, ["icount"])

    def test_pair_without_reference_values(self):
        key = self.points.select(workload="load")[0]
        self.points.values[key].pop("b")
        self.assertEqual(tables.compare_cell(None, "ratio", labels.ratio, key, self.points,
                                             self.run, "b"), "no b")

    def test_header_names_the_pairs_and_fill_configurations(self):
        lines = tables.header_lines(self.run)
        self.assertIn("also compared: a with b", lines)
        self.assertIn("fill-4m (fill only, variant series)", lines[1])


class NewLabelsTest(unittest.TestCase):
    def test_count(self):
        self.assertEqual(labels.count(229320.0), "229,320")
        self.assertEqual(labels.count(425.33), "425.3")
        self.assertEqual(labels.count(201950.4, whole=True), "201,950")
        self.assertEqual(labels.count(None), "-")

    def test_sizes(self):
        self.assertEqual(labels.size_bytes(4096), "4 KiB")
        self.assertEqual(labels.size_bytes(2 * 1024 * 1024 + 4096), "2052 KiB")
        self.assertEqual(labels.size_bytes(2 ** 31), "2 GiB")
        self.assertEqual(labels.size_bytes(1500000), "1.43 MiB")
        self.assertEqual(labels.size_bytes(100), "100 bytes")
        self.assertEqual(labels.mib(64), "64 MiB")
        self.assertEqual(labels.mib(1024), "1 GiB")

    def test_percent(self):
        self.assertEqual(labels.percent(0.0123), "+1.23%")
        self.assertEqual(labels.percent(-0.5), "-50.00%")
        self.assertEqual(labels.percent(None), "-")


class FillGapsTest(unittest.TestCase):
    def run_with(self, fill_rows, boots=()):
        meta = {"run_id": "20260101-000000-f", "baseline": "base",
                "configurations": {c: {"variant": "series"} for c in ("base", "f4", "f8", "f16")},
                "boots": list(boots), "fill_configurations": ["f4", "f8", "f16"]}
        s = [sample("base", "straight", 1.0)]
        s += [runs.Sample(c, "wall", 0, "fill", case, x, "objects", "count", 0, False, 1.0)
              for c, case, x in fill_rows]
        return runs.Run("/nonexistent", meta, s)

    def test_fill_gaps(self):
        run = self.run_with([("f4", "p50", "4"), ("f4", "mix", "4"), ("f8", "p50", "8")],
                            boots=[{"config": "f16", "clock": "wall", "boot": 0,
                                    "status": "failed", "reason": "panic"}])
        got = missing.lines(run, points.Points(run), boots=False)
        self.assertEqual(got, ["f8: fill: 1 of 2 classes missing: mix",
                               "f16: no fill samples (a wall boot of f16 failed)"])

    def test_complete_fill_is_not_missing(self):
        run = self.run_with([(c, "p50", x) for c, x in (("f4", "4"), ("f8", "8"), ("f16", "16"))])
        self.assertEqual(missing.lines(run, points.Points(run)), [])


class NoneMeasurableMarkTest(unittest.TestCase):
    """A comparison whose interval contains no difference is marked, and the statistics
    line says what the mark means."""

    def cell(self, what, value, ci):
        import collections
        Cmp = collections.namedtuple("Cmp", "ratio ratio_ci delta delta_ci")
        cmp = Cmp(value, ci, value, ci) if what == "ratio" else Cmp(None, None, value, ci)
        fmt = labels.ratio if what == "ratio" else labels.delta
        import types
        return tables.compare_cell(cmp, what, fmt, None, None,
                                   types.SimpleNamespace(baseline="base"), "ref")

    def test_ratio_containing_one_is_marked(self):
        self.assertTrue(self.cell("ratio", 1.01, (0.99, 1.03)).endswith(" ~"))
        self.assertFalse(self.cell("ratio", 1.04, (1.02, 1.06)).endswith("~"))

    def test_difference_containing_zero_is_marked(self):
        self.assertTrue(self.cell("delta", 0.5, (-0.1, 1.0)).endswith(" ~"))
        self.assertFalse(self.cell("delta", 5.0, (4.0, 6.0)).endswith("~"))

    def test_legend(self):
        from tests import helpers
        run = runs.load(helpers.OK)
        text = " ".join(tables.header_lines(run))
        self.assertIn("~: the interval contains 1 (a ratio) or 0 (a difference): no"
                      " difference measurable at this n", text)
