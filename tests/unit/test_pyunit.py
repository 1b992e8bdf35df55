"""tests/pyunit counts a test whose subtest fails as failed, in its tally and its KTAP."""
import os
import subprocess
import sys
import tempfile
import unittest

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

CASE = '''import unittest


class T(unittest.TestCase):
    def test_sub(self):
        for i in range(3):
            with self.subTest(i=i):
                self.assertNotEqual(i, 1)

    def test_plain(self):
        pass
'''


class SubTestTally(unittest.TestCase):
    def test_failed_subtest_fails_the_test(self):
        with tempfile.TemporaryDirectory() as tmp:
            pkg = os.path.join(tmp, "subt")
            os.mkdir(pkg)
            open(os.path.join(pkg, "__init__.py"), "w").close()
            with open(os.path.join(pkg, "test_sub.py"), "w") as f:
                f.write(CASE)
            ktap = os.path.join(tmp, "out.ktap")
            proc = subprocess.run([sys.executable, os.path.join(TOP, "tests", "pyunit"), pkg,
                                   "--ktap", ktap], capture_output=True, text=True, timeout=120)
            self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
            self.assertIn(": 1 passed, 1 failed, 0 skipped", proc.stdout)
            with open(ktap) as f:
                text = f.read()
            self.assertIn("not ok", text)
            self.assertIn("(i=1)", text)


if __name__ == "__main__":
    unittest.main()
