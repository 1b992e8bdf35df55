"""selftests.py config: the options the selftests want and the kernel lacks, each
with its reason; an option without one fails the command."""
import io
import os
import sys
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
import selftests_config  # noqa: E402


class ConfigTest(unittest.TestCase):
    def run_config(self, reasons):
        with tempfile.TemporaryDirectory() as d:
            files = {"dotconfig": "CONFIG_A=y\n# CONFIG_B is not set\n",
                     "reasons": reasons, "frag": "CONFIG_A=y\nCONFIG_B=y\nCONFIG_C=m\n"}
            for name, text in files.items():
                with open(os.path.join(d, name), "w") as f:
                    f.write(text)
            out, err = io.StringIO(), io.StringIO()
            with redirect_stdout(out), redirect_stderr(err):
                rc = selftests_config.cmd_config(os.path.join(d, "dotconfig"),
                                          os.path.join(d, "reasons"), [os.path.join(d, "frag")])
        return rc, out.getvalue(), err.getvalue()

    def test_every_gap_explained(self):
        rc, out, err = self.run_config("CONFIG_B no B here\nCONFIG_C no C either\n")
        self.assertEqual(rc, 0)
        self.assertIn("CONFIG_B\ty\tn\tno B here", out)
        self.assertEqual(err, "")

    def test_an_unexplained_gap_fails(self):
        rc, out, err = self.run_config("CONFIG_B no B here\n")
        self.assertEqual(rc, 1)
        self.assertIn("CONFIG_C\tm\tn\tnot set by this kernel's fragments", out)
        self.assertIn("1 option(s) the selftests want are neither in the kernel nor"
                      " explained", err)
        self.assertIn("CONFIG_C", err)


if __name__ == "__main__":
    unittest.main()
