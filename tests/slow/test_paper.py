"""make paper: both PDFs build from the committed runs, and every generated number is the runs'.

paper/build runs into a scratch directory. The LaTeX logs must have no
undefined reference or citation and no overfull box wider than 1 pt; the
PDFs render (pdftoppm) with the page counts the issue asks (paper 5 to 6,
talk 15 to 20 slides, the notes version twice the talk); every file a
document includes exists. Every macro of generated/numbers.tex is
recomputed here from the runs' raw files (samples.csv, matrix.tsv,
checks.tsv, selftests.tsv, markers.txt, region.txt), with code of its own,
or, where the figure is a model's or an interval's, read from the run's
committed tables (which tests/slow/test_committed_runs.py regenerates) or
from analysis/tune's printed answer; a macro nothing here checks fails.
Every number of a generated table is a checked macro's value (or a label:
a program size), and every cell of the security table is what matrix.tsv
says became of that attack. Bad input ends with one line naming what is
missing.
"""
import csv
import glob
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import unittest

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.path.join(TOP, "paper", "build")
RUNS = os.path.join(TOP, "paper", "runs")
WORDS = "Zero One Two Three Four Five Six Seven Eight Nine".split()


def name(*parts):
    """The macro name the paper uses for parts, spelled here on its own."""
    out = ""
    for p in parts:
        for w in re.findall(r"[A-Za-z]+|\d", str(p)):
            out += WORDS[int(w)] if w.isdigit() else w[0].upper() + w[1:]
    return out[0].lower() + out[1:]


def runs():
    got = {}
    with open(RUNS) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                role, path = line.split()
                got[role] = os.path.join(TOP, path)
    return got


def samples(run_dir):
    """{(config, workload, case, x, metric): [values]}: icount, measured rows, first boot."""
    rows = []
    with open(os.path.join(run_dir, "samples.csv")) as f:
        for r in csv.DictReader(f):
            if r["clock"] == "icount" and r["warmup"] == "0":
                rows.append(r)
    first = {}
    for r in rows:
        first[r["config"]] = min(first.get(r["config"], int(r["boot"])), int(r["boot"]))
    out = {}
    for r in rows:
        if int(r["boot"]) == first[r["config"]]:
            key = (r["config"], r["workload"], r["case"], r["x"], r["metric"])
            out.setdefault(key, []).append(float(r["value"]))
    return out


def tsv(path):
    with open(path) as f:
        return list(csv.DictReader(f, delimiter="\t"))


def close(macro, value):
    """macro (as typeset) equals value at the precision it is written with."""
    text = macro.replace("{,}", "").replace(",", "").replace("~", " ").split()[0]
    decimals = len(text.partition(".")[2])
    return round(float(value), decimals) == float(text)


class PaperTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.out = tempfile.mkdtemp(prefix="paper-")
        cls.proc = subprocess.run([BUILD, "--out", cls.out], capture_output=True, text=True)
        cls.macros = {}
        path = os.path.join(cls.out, "generated", "numbers.tex")
        if os.path.exists(path):
            with open(path) as f:
                for m in re.finditer(r"\\newcommand\{\\(\w+)\}\{(.*)\}", f.read()):
                    cls.macros[m.group(1)] = m.group(2)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.out, ignore_errors=True)

    def test_builds(self):
        self.assertEqual(self.proc.returncode, 0, self.proc.stderr)
        for doc in ("paper", "talk", "talk-notes"):
            self.assertTrue(os.path.isfile(os.path.join(self.out, f"{doc}.pdf")), doc)

    def test_logs_clean(self):
        for doc in ("paper", "talk", "talk-notes"):
            with open(os.path.join(self.out, f"{doc}.log"), errors="replace") as f:
                log = f.read()
            with self.subTest(doc=doc):
                self.assertNotRegex(log, r"(Reference|Citation) `[^']*' on page \d+ undefined")
                self.assertNotIn("There were undefined references", log)
                wide = [float(x) for x in re.findall(r"Overfull \\[hv]box \(([\d.]+)pt too", log)]
                self.assertEqual([w for w in wide if w > 1.0], [], f"{doc}: overfull boxes")

    def test_pages_render(self):
        want = {"paper": (5, 6), "talk": (15, 20)}
        counts = {}
        for doc in ("paper", "talk", "talk-notes"):
            prefix = os.path.join(self.out, f"png-{doc}")
            subprocess.run(["pdftoppm", "-r", "20", "-png", os.path.join(self.out, f"{doc}.pdf"),
                            prefix], check=True)
            counts[doc] = len(glob.glob(prefix + "-*.png"))
        for doc, (lo, hi) in want.items():
            self.assertTrue(lo <= counts[doc] <= hi, f"{doc}: {counts[doc]} pages")
        self.assertEqual(counts["talk-notes"], 2 * counts["talk"])

    def test_included_files_exist(self):
        for doc in ("paper.tex", "talk.tex"):
            with open(os.path.join(TOP, "paper", doc)) as f:
                text = f.read()
            for path in re.findall(r"\\(?:includegraphics(?:\[[^]]*\])?|input)\{([^}]+)\}", text):
                with self.subTest(doc=doc, path=path):
                    full = os.path.join(self.out, path)
                    self.assertTrue(os.path.isfile(full) or os.path.isfile(full + ".tex"), path)

    def test_every_frame_has_notes(self):
        with open(os.path.join(TOP, "paper", "talk.tex")) as f:
            frames = re.findall(r"\\begin\{frame\}(.*?)\\end\{frame\}", f.read(), re.S)
        self.assertTrue(frames)
        self.assertEqual([i for i, fr in enumerate(frames) if "\\note{" not in fr], [])

    def test_every_macro_is_the_runs(self):
        expected = self.expected()
        unchecked = sorted(set(self.macros) - set(expected))
        self.assertEqual(unchecked, [], "macros nothing here recomputes")
        for key, want in expected.items():
            with self.subTest(macro=key):
                self.assertIn(key, self.macros)
                got = self.macros[key]
                if isinstance(want, str):
                    self.assertEqual(got, want)
                else:
                    self.assertTrue(close(got, want), f"\\{key} is {got}, the run gives {want}")

    def expected(self):
        r = runs()
        exp = {name("run", role): os.path.basename(path).replace("_", "\\_")
               for role, path in r.items()}
        self.load_expected(r["load"], exp)
        self.calls_expected(r["calls"], exp)
        self.region_expected(r["region"], exp)
        self.sizing_expected(r["sizing"], exp)
        conc = samples(r["conc"])
        most = max(int(float(k[3])) for k in conc if k[1] == "conc")
        for config, tag in (("series", "Pool"), ("series-pool-32k", "Small")):
            for cpus in (2, 4):
                exp[name("conc misses", tag, cpus)] = conc[(config, "conc", f"cpus{cpus}",
                                                            str(most), "pool_misses")][0]
        exp[name("conc loaders")] = most
        self.security_expected(r["security"], exp)
        counts = {}
        for row in tsv(os.path.join(r["selftests"], "selftests.tsv")):
            counts[(row["runner"], row["status"])] = counts.get((row["runner"], row["status"]), 0) + 1
        for runner in ("test_progs", "test_verifier", "test_bpf"):
            for status in ("PASS", "SKIP", "FAIL"):
                exp[name("selftests", runner, status.lower())] = counts.get((runner, status), 0)
        self.layout_expected(r["layout"], exp)
        return exp

    def load_expected(self, run, exp):
        s = samples(run)
        points = [k for k in s if k[0] == "series" and k[1] == "load" and k[4] == "load_ns"]
        exp[name("load points")] = len(points)
        exp[name("load rounds")] = len(s[points[0]])
        for ref, tag in (("series-wp-off", "Wp"), ("vanilla", "All")):
            worst = widest = None
            for k in points:
                _, _, case, x, _ = k
                parts = ("real", case[5:]) if case.startswith("real:") else (case, x)
                ratio = statistics.median(s[k]) / statistics.median(s[(ref,) + k[1:]])
                exp[name("load", tag, *parts)] = ratio
                lo, hi = self.table_ci(run, case, x, f"series / {ref} [95% CI]")
                exp[name("load", tag, *parts, "lo")] = lo
                exp[name("load", tag, *parts, "hi")] = hi
                label = (case[5:] if case.startswith("real:") else
                         f"{x} subprogram{'' if x == '1' else 's'}" if case == "subprogs"
                         else f"{case} {x}")
                if worst is None or ratio > worst[0]:
                    worst = (ratio, label)
                if widest is None or hi > widest[0]:
                    widest = (hi, label)
            exp[name("load", tag, "max")] = worst[0]
            exp[name("load", tag, "max at")] = worst[1]
            exp[name("load", tag, "hi max")] = widest[0]
            exp[name("load", tag, "hi max at")] = widest[1]

    def region_expected(self, run, exp):
        region = samples(run)
        offs = [k for k in region if k[0] == "series-region-off" and k[1] == "load"
                and k[4] == "load_ns"]
        ratios = [statistics.median(region[("series",) + k[1:]]) / statistics.median(region[k])
                  for k in offs]
        exp[name("region ratio min")] = min(ratios)
        exp[name("region ratio max")] = max(ratios)
        exp[name("region points")] = len(offs)
        exp[name("region rounds")] = len(region[("series",) + offs[0][1:]])
        cis = [self.table_ci(run, k[2], k[3], "series / series-region-off [95% CI]")
               for k in offs]
        exp[name("region ci min")] = min(lo for lo, _ in cis)
        exp[name("region ci max")] = max(hi for _, hi in cis)
        exp[name("region ci excluding")] = sum(1 for lo, hi in cis if not lo <= 1 <= hi)
        exp[name("region ci excluding above")] = sum(1 for lo, _ in cis if lo > 1)
        for case in ("fentry", "fexit"):
            for config, tag in (("series-nokaslr", "on"), ("series-nokaslr-region-off", "off")):
                exp[name("region nokaslr", case, tag)] = statistics.median(
                    region[(config, "call", case, "", "call_ns")])

    @staticmethod
    def table_ci(run, case, x, column):
        """(lo, hi) of a load_ns row's column in the run's committed summary table."""
        with open(os.path.join(run, "tables", "summary.md")) as f:
            table = f.read().splitlines()
        header = next(line for line in table if line.startswith("| case | x | metric"))
        col = [c.strip() for c in header.strip("|").split("|")].index(column)
        row = next(line for line in table
                   if [c.strip() for c in line.strip("|").split("|")][:3] == [case, x, "load_ns"])
        cell = [c.strip() for c in row.strip("|").split("|")][col]
        lo, hi = re.match(r"[\d.]+ \[([\d.]+), ([\d.]+)\]", cell).groups()
        return float(lo), float(hi)

    def calls_expected(self, run, exp):
        s = samples(run)
        for case in ("dispatcher", "bpf_loop", "for_each", "tail_call", "bpf2bpf", "fentry",
                     "fexit", "freplace"):
            for config, tag in (("vanilla", "Vanilla"), ("series", "Series")):
                exp[name("call", case, tag)] = statistics.median(
                    s[(config, "call", case, "", "call_ns")])
        exp[name("call dispatcher delta")] = (
            statistics.median(s[("series", "call", "dispatcher", "", "call_ns")])
            - statistics.median(s[("vanilla", "call", "dispatcher", "", "call_ns")]))
        for case, x in (("load_existing_pack", "64"), ("load_existing_pack", "4096"),
                        ("load_new_pack", "4096")):
            for metric in ("tlbi", "dsb", "isb"):
                for config, tag in (("series-wp-off", "WpOff"), ("series", "Series")):
                    exp[name("tlb", case, x, metric, tag)] = statistics.median(
                        s[(config, "tlb", case, x, metric)])

    def sizing_expected(self, run, exp):
        import json
        with open(os.path.join(run, "tables", "sizing.json")) as f:
            model = json.load(f)
        for p in model["predictions"]:
            if p["size_mib"] not in (128, 1024):
                continue
            exp[name("sizing", p["size_mib"], "packs")] = p["all_packs"]
            exp[name("sizing", p["size_mib"], "program packs")] = p["packs"]
            for cls in ("p50", "p75", "mix after churn", "trampoline", "struct_ops"):
                exp[name("sizing", p["size_mib"], cls)] = int(p["objects"][cls])
        tables = next(p for p in model["page_tables"] if p["size_mib"] == 128)
        exp[name("sizing 128 page tables")] = f"{tables['4K']['bytes'] // 1024}~KiB"
        errs = [c["relative_error"] for c in model["check"] if c["relative_error"] is not None]
        exp[name("sizing error")] = 100 * max(abs(e) for e in errs)
        exp[name("sizing smallest")] = min(model["sizes_mib"])
        exp[name("sizing largest")] = max(model["sizes_mib"])
        out = subprocess.run([sys.executable, os.path.join(TOP, "analysis", "tune"),
                              "--sizing-run", run], capture_output=True, text=True, check=True).stdout
        host = re.search(r"host: ([\d,]+) programs .*headroom x([\d.]+)", out)
        region = re.search(r"bpf_jit_region=(\d+)M: (\d+) packs, .*; (\d+) needed", out)
        exp[name("tune programs")] = int(host.group(1).replace(",", ""))
        exp[name("tune headroom")] = host.group(2)
        exp[name("tune region mib")] = region.group(1)
        exp[name("tune packs")] = region.group(2)
        exp[name("tune packs needed")] = region.group(3)
        for kib, page in re.findall(r"(\d+) KiB with (\w+) pages", out):
            exp[name("tune page tables", page)] = f"{kib}~KiB"

    def security_expected(self, run, exp):
        rows = [x for x in tsv(os.path.join(run, "matrix.tsv")) if x["attack"] != "(every attack)"]
        for mode in ("enforce", "warn", "off"):
            mine = [x for x in rows if x["mode"] == mode]
            exp[name("attacks", mode)] = len(mine)
            exp[name("attacks", mode, "tampered")] = sum(x["returned"] == "0x4321" for x in mine)
        exp[name("attacks kinds")] = len({x["attack"] for x in rows})
        every = tsv(os.path.join(run, "checks.tsv"))
        checks = {x["check"]: x["summary"] for x in every if x["mode"] == "enforce"}
        exp[name("cfi modes")] = len({x["mode"] for x in every if x["check"] == "test_cfi_trap"})
        churn = re.findall(r"\d+", checks["test_jit_wp_churn"])
        for value, what in zip(churn, ("loads", "seals", "verifications", "digests",
                                       "insn seals", "insn checks")):
            exp[name("churn", what)] = int(value)
        inj = [[int(v) for v in m] for m in
               re.findall(r"(\d+) injection points, (\d+) loads failed, (\d+) absorbed",
                          checks["test_jit_wp_fail"])]
        for i, what in enumerate(("points", "failed", "absorbed")):
            exp[name("inject", what)] = sum(x[i] for x in inj)
        exp[name("cfi traps")] = len(re.findall(r"CFI failure", checks["test_cfi_trap"]))

    def layout_expected(self, run, exp):
        region = {}
        with open(os.path.join(run, "region.txt")) as f:
            for line in f:
                k, _, v = line.partition(": ")
                region[k] = v.strip()
        start, end = int(region["start"], 16), int(region["end"], 16)
        w0, w1 = int(region["window_start"], 16), int(region["window_end"], 16)
        mib = 1 << 20
        exp[name("layout region size")] = (end - start) // mib
        exp[name("layout window size")] = (w1 - w0) // (1024 * mib)
        exp[name("layout region offset")] = (start - w0) // mib
        exp[name("layout region start")] = region["start"]
        with open(os.path.join(run, "markers.txt")) as f:
            text = f.read()
        area = re.search(r"vmalloc\(\) area \]---\n(0x[0-9a-f]+)", text).group(1)
        stop = re.search(r"vmalloc\(\) end \]---\n(0x[0-9a-f]+)", text).group(1)
        exp[name("layout vmalloc tib")] = (int(stop, 16) - int(area, 16)) / (1 << 40)

    # Numbers in a table's labels: inputs (program sizes, size classes), not figures.
    LABELS = {"tab-load.tex": {"8", "512", "4096", "65536", "1", "64", "95", "6.12"},
              "tab-tlb.tex": {"64", "4096"}, "tab-sizing.tex": {"500", "2"},
              "tab-calls.tex": {"6.12"}}

    def test_tables_are_the_runs(self):
        """Every number of a generated table is the value of a macro checked above, and
        every cell of the security table says what matrix.tsv has for its attack."""
        values = {v.replace("{,}", ",") for v in self.macros.values()}
        for table, labels in self.LABELS.items():
            with open(os.path.join(self.out, "generated", table)) as f:
                body = "".join(line for line in f if not line.startswith("%")).replace("{,}", ",")
            for number in re.findall(r"(?<![\w.,])\d[\d,]*(?:\.\d+)?(?![\w.,])", body):
                with self.subTest(table=table, number=number):
                    self.assertTrue(number in values or number in labels,
                                    f"{number} of {table} is no macro's value")
        rows = [x for x in tsv(os.path.join(runs()["security"], "matrix.tsv"))
                if x["attack"] != "(every attack)"]
        with open(os.path.join(self.out, "generated", "tab-security.tex")) as f:
            lines = [line for line in f if line.count("&") == 3 and "enforce" not in line]
        labelled = [[c.strip().rstrip("\\").strip() for c in line.split("&")] for line in lines]
        apart = {c[0].replace("\\_", "_").partition(" (")[0] for c in labelled if " (" in c[0]}
        shown = set()
        for cells in labelled:
            attack, _, victim = cells[0].replace("\\_", "_").partition(" (")
            victim = victim.rstrip(")")
            shown.add(attack)
            # A row named by its attack alone is the one-function (or live) victim's,
            # and the two-function one's too unless that has a row of its own.
            victims = ({victim} if victim else
                       {"one-function", "live", "none"} | (set() if attack in apart
                                                           else {"two-function"}))
            for mode, cell in zip(("enforce", "warn", "off"), cells[1:]):
                mine = [x for x in rows if x["attack"] == attack and x["mode"] == mode
                        and x["victim"] in victims]
                with self.subTest(attack=cells[0], mode=mode):
                    self.assertTrue(mine)
                    for r in mine:  # a merged row: every victim fares as the cell says
                        self.assertEqual(cell, self.fate(r))
        self.assertEqual(shown, {x["attack"] for x in rows})

    @staticmethod
    def fate(r):
        """What became of an attack, from its matrix row alone."""
        if r["returned"] == "0x4321":
            return "tampered"
        if r["load"].startswith("failed"):
            return "load refused"
        if r["gadget"].startswith("refused"):
            return "refused"
        if "faulted" in r["gadget"]:
            return "write faults"
        reported = r["console"].startswith("reported")
        if r["gadget"].startswith("allowed"):
            return "allowed, reported" if reported else "allowed"
        return "reported" if reported else "no effect"


class BadInputTest(unittest.TestCase):
    def build(self, text):
        with tempfile.TemporaryDirectory() as d:
            runs_file = os.path.join(d, "runs")
            with open(runs_file, "w") as f:
                f.write(text)
            return subprocess.run([BUILD, "--runs", runs_file, "--out", os.path.join(d, "out")],
                                  capture_output=True, text=True)

    def lines(self):
        with open(RUNS) as f:
            return [x for x in f if x.strip() and not x.startswith("#")]

    def test_missing_run(self):
        text = "".join(x if not x.startswith("load ") else "load results/bench/nope\n"
                       for x in self.lines())
        proc = self.build(text)
        self.assertNotEqual(proc.returncode, 0)
        self.assertEqual(proc.stderr.strip().count("\n"), 0, proc.stderr)
        self.assertIn("load: no run results/bench/nope", proc.stderr)

    def test_run_without_the_workload(self):
        sizing_run = next(x.split()[1] for x in self.lines() if x.startswith("sizing "))
        text = "".join(x if not x.startswith("load ") else f"load {sizing_run}\n"
                       for x in self.lines())
        proc = self.build(text)
        self.assertNotEqual(proc.returncode, 0)
        self.assertEqual(proc.stderr.strip().count("\n"), 0, proc.stderr)
        self.assertIn("has no load samples", proc.stderr)


if __name__ == "__main__":
    unittest.main()
