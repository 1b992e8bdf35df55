"""Shared by the analysis tests: fixture paths, scratch copies, running the CLIs.

Tests never write into analysis/tests/fixtures/: anything that writes works
on a copy in a temporary directory.
"""
import csv
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ANALYSIS = os.path.dirname(HERE)
FIXTURES = os.path.join(HERE, "fixtures")
OK = os.path.join(FIXTURES, "ok", "20260101-120000-quick")
FAILED = os.path.join(FIXTURES, "failed", "20260102-120000-quick")
MALFORMED = os.path.join(FIXTURES, "malformed", "20260103-120000-quick")
NOMETA = os.path.join(FIXTURES, "nometa", "20260104-120000-quick")
FILL = os.path.join(FIXTURES, "fill", "20260105-120000-quick")


class Scratch:
    """A temporary results root; removed by cleanup()."""

    def __init__(self):
        self.root = tempfile.mkdtemp(prefix="analysis-test-")

    def copy(self, run, name=None, keep=None, extra=()):
        """Copy a fixture run into the root; keep(row dict) filters samples.csv,
        extra rows (lists of fields) are appended to it."""
        dest = os.path.join(self.root, name or os.path.basename(run))
        shutil.copytree(run, dest)
        if keep is not None or extra:
            keep = keep or (lambda r: True)
            with open(os.path.join(run, "samples.csv"), newline="") as f:
                rows = list(csv.DictReader(f))
                header = list(rows[0])
            with open(os.path.join(dest, "samples.csv"), "w", newline="") as f:
                w = csv.DictWriter(f, header, lineterminator="\n")
                w.writeheader()
                w.writerows(r for r in rows if keep(r))
                csv.writer(f, lineterminator="\n").writerows(extra)
        return dest

    def cleanup(self):
        shutil.rmtree(self.root, ignore_errors=True)


def run_cli(name, *args):
    """Run analysis/<name> with this interpreter; return the CompletedProcess."""
    return subprocess.run([sys.executable, os.path.join(ANALYSIS, name), *args],
                          capture_output=True, text=True, timeout=600)


def tree_files(path):
    """Every file under path, relative, for checking a directory is untouched."""
    out = []
    for d, _, files in os.walk(path):
        out += [os.path.relpath(os.path.join(d, f), path) for f in files]
    return sorted(out)
