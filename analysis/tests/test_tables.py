"""tables and labels: escaping, number formats, and the rows of a small in-memory run."""
import os
import shutil
import subprocess
import tempfile
import unittest

import labels
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


class SectionsTest(unittest.TestCase):
    def setUp(self):
        self.run = small_run()
        self.points = points.Points(self.run)

    def test_rows(self):
        secs = tables.sections(self.run, self.points)
        (clock, workload, header, rows), (_, weird, _, wrows) = secs
        self.assertEqual((clock, workload), ("icount", "load"))
        self.assertEqual(header[4:], ["base_1", "a&b%c", "a&b%c / base_1 [95% CI]"])
        self.assertEqual(rows[0][:4], ["real:x%y#z", "8", "load_ns", "guest instructions"])
        self.assertEqual(rows[0][4], "11.00 [10.10, 11.90] n=3")
        self.assertTrue(rows[0][6].startswith("2.000 ["))
        self.assertEqual(weird, "weird|w")
        self.assertEqual(wrows[0][4:], ["5 [5, 5] n=1", "missing", "missing"])

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
