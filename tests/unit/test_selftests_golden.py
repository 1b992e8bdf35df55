"""The committed selftests results regenerate from their logs byte for byte.

For each results/selftests/<run>/ the runners' logs (out/) and console give
the committed selftests.tsv again (selftests.py table), and each committed
compare-*.txt is what selftests.py compare prints for its two runs: a change
of the parsers that reads an old log differently fails here.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RESULTS = os.path.join(TOP, "results", "selftests")
TOOL = os.path.join(TOP, "tests", "selftests.py")
# What selftests.py table reads of a run directory.
INPUTS = ("out", "console.log", "skipped-by-name.txt")


def runs():
    return sorted(d for d in os.listdir(RESULTS)
                  if os.path.isfile(os.path.join(RESULTS, d, "selftests.tsv")))


def copy_inputs(run, into):
    dst = os.path.join(into, run)
    os.makedirs(dst)
    for name in INPUTS:
        src = os.path.join(RESULTS, run, name)
        if os.path.isdir(src):
            shutil.copytree(src, os.path.join(dst, name))
        elif os.path.exists(src):
            shutil.copy(src, dst)
    return dst


class GoldenTest(unittest.TestCase):
    def test_tables_regenerate(self):
        self.assertTrue(runs(), f"no selftests runs under {RESULTS}")
        with tempfile.TemporaryDirectory() as tmp:
            for run in runs():
                with self.subTest(run=run):
                    d = copy_inputs(run, tmp)
                    subprocess.run([sys.executable, TOOL, "table", d], capture_output=True,
                                   text=True, timeout=300)
                    with open(os.path.join(d, "selftests.tsv"), "rb") as f:
                        got = f.read()
                    with open(os.path.join(RESULTS, run, "selftests.tsv"), "rb") as f:
                        self.assertEqual(got, f.read(), f"{run}/selftests.tsv differs")

    def test_comparisons_regenerate(self):
        files = sorted(f for f in os.listdir(RESULTS) if f.startswith("compare-"))
        self.assertTrue(files, f"no compare-*.txt under {RESULTS}")
        names = runs()
        with tempfile.TemporaryDirectory() as tmp:
            for run in names:
                copy_inputs(run, tmp)
            for name in files:
                with self.subTest(compare=name):
                    # compare-ARCH-A-B[-subset].txt, A and B runs ARCH-A[-subset], ARCH-B[-subset]
                    pair = [(a, b) for a in names for b in names
                            if a != b and a.endswith("-subset") == b.endswith("-subset")
                            and name == self.file_name(a, b)]
                    self.assertEqual(len(pair), 1, f"{name}: which two runs it compares")
                    a, b = pair[0]
                    proc = subprocess.run([sys.executable, TOOL, "compare", os.path.join(tmp, a),
                                           os.path.join(tmp, b)], capture_output=True,
                                          text=True, timeout=300)
                    with open(os.path.join(RESULTS, name)) as f:
                        self.assertEqual(proc.stdout, f.read(), f"{name} differs")

    @staticmethod
    def file_name(a, b):
        """The Makefile's name for the comparison of runs a and b (selftests-compare)."""
        suffix = "-subset" if a.endswith("-subset") and b.endswith("-subset") else ""
        strip = (lambda r: r[:-len("-subset")] if suffix else r)
        return f"compare-{strip(a)}-{strip(b)[len('arm64-'):]}{suffix}.txt"


if __name__ == "__main__":
    unittest.main()
