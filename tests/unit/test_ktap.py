"""ktap (tests/pyunit --ktap): KTAP version 1 that kunit.py parse (make test's tally) reads."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

import ktap

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KUNIT = os.path.join(os.environ.get("BUILD", os.path.join(TOP, "build")), "linux", "tools", "testing",
                     "kunit", "kunit.py")


class Fake:
    def __init__(self, name):
        self.name = name

    def id(self):
        return self.name


OUTCOMES = [(Fake("tests.test_a.A.test_one"), "ok", ""),
            (Fake("tests.test_a.A.test_two"), "fail", "Traceback:\n  AssertionError: 1 != 2\n"),
            (Fake("tests.test_b.B.test_three"), "skip", "no kvm"),
            (Fake("setUpClass (tests.test_c.C)"), "fail", "RuntimeError: boom")]


class KtapTest(unittest.TestCase):
    def test_format(self):
        text = ktap.render(OUTCOMES)
        lines = text.splitlines()
        self.assertEqual(lines[:2], ["KTAP version 1", "1..4"])
        self.assertIn("ok 1 test_a.A.test_one", lines)
        self.assertIn("# Traceback:", lines)
        self.assertIn("#   AssertionError: 1 != 2", lines)
        self.assertIn("not ok 2 test_a.A.test_two", lines)
        self.assertIn("ok 3 test_b.B.test_three # SKIP no kvm", lines)
        self.assertIn("not ok 4 setUpClass (tests.test_c.C)", lines)
        results = [line for line in lines if line.startswith(("ok ", "not ok "))]
        self.assertEqual(len(results), 4)

    @unittest.skipUnless(os.path.exists(KUNIT), f"{KUNIT} not there (make tree makes it)")
    def test_kunit_parse_reads_it(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "t.ktap")
            out = os.path.join(d, "t.json")
            with open(path, "w") as f:
                f.write(ktap.render(OUTCOMES))
            subprocess.run([sys.executable, KUNIT, "parse", f"--json={out}", path],
                           capture_output=True, text=True, timeout=120)
            with open(out) as f:
                cases = json.load(f)["test_cases"]
        self.assertEqual([(c["name"], c["status"]) for c in cases],
                         [("test_a.A.test_one", "PASS"), ("test_a.A.test_two", "FAIL"),
                          ("test_b.B.test_three", "SKIP"),
                          ("setUpClass (tests.test_c.C)", "FAIL")])
