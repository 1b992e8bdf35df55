"""Every committed benchmark run's tables and plots are what analysis/ makes of its raw data.

The documents quote the committed tables (tests/unit/test_figures.py checks
them against these), so a table left from an older analysis, or edited, must
fail: each run's metadata.json, samples.csv and determinism.json are copied
to a scratch directory, analysis/analyze runs there, and every file of the
committed tables/ and plots/ must come out byte for byte, with nothing
committed that the analysis no longer writes. Slow (the bootstrap of every
point of every run: about two minutes on two cores), so it is a "slow" suite
of tests/plan: make test runs it, make check does not.
"""
import filecmp
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from concurrent.futures import ThreadPoolExecutor

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BENCH = os.path.join(TOP, "results", "bench")
INPUTS = ("metadata.json", "samples.csv", "determinism.json")
OUTPUTS = ("tables", "plots")


def committed_runs():
    return sorted(d for d in os.listdir(BENCH)
                  if os.path.isfile(os.path.join(BENCH, d, "metadata.json")))


def files_under(root):
    return sorted(os.path.relpath(os.path.join(d, f), root)
                  for sub in OUTPUTS for d, _, fs in os.walk(os.path.join(root, sub)) for f in fs)


def reanalyse(run_id, scratch):
    """analysis/analyze on a copy of the run's inputs; (returncode, output, directory)."""
    where = os.path.join(scratch, run_id)
    os.makedirs(where)
    for name in INPUTS:
        src = os.path.join(BENCH, run_id, name)
        if os.path.exists(src):
            shutil.copy(src, where)
    proc = subprocess.run([sys.executable, os.path.join(TOP, "analysis", "analyze"), where],
                          capture_output=True, text=True)
    return proc.returncode, proc.stdout + proc.stderr, where


class CommittedRunsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = tempfile.mkdtemp(prefix="committed-runs-")
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
            cls.done = dict(zip(committed_runs(), pool.map(
                lambda r: reanalyse(r, cls.scratch), committed_runs())))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.scratch, ignore_errors=True)

    def test_there_are_runs(self):
        self.assertGreater(len(self.done), 0, f"no run under {BENCH}")

    def test_tables_and_plots_regenerate(self):
        for run_id, (rc, output, where) in self.done.items():
            with self.subTest(run=run_id):
                self.assertEqual(rc, 0, output)
                committed = os.path.join(BENCH, run_id)
                made, kept = files_under(where), files_under(committed)
                self.assertEqual(kept, made, f"{run_id}: committed files differ from those"
                                 " analysis/analyze writes today")
                differ = [f for f in made if not filecmp.cmp(os.path.join(where, f),
                                                             os.path.join(committed, f),
                                                             shallow=False)]
                self.assertEqual(differ, [], f"{run_id}: regenerate with analysis/analyze"
                                 f" {os.path.relpath(committed, TOP)}")


if __name__ == "__main__":
    unittest.main()
