"""vm/configurations.py: boot configurations (variant + boot arguments) by name."""
import os
import subprocess
import sys
import tempfile
import unittest

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(TOP, "vm"))
import configurations  # noqa: E402

SCRIPT = os.path.join(TOP, "vm", "configurations.py")


class ConfigurationsTest(unittest.TestCase):
    def read(self, text):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "c")
            with open(path, "w") as f:
                f.write(text)
            return configurations.read(path)

    def refusal(self, text):
        """What read() says of TEXT, which it must refuse."""
        with self.assertRaises(configurations.Error) as e:
            self.read(text)
        return str(e.exception)

    def test_boot_arguments_and_dash(self):
        self.assertEqual(self.read("# x\nbase vanilla -\nab series foo=1 bar=off\n"),
                         {"base": ("vanilla", ""), "ab": ("series", "foo=1 bar=off")})

    def test_unknown_variant_names_the_valid_ones(self):
        said = self.refusal("base nosuch -\n")
        self.assertIn("unknown variant 'nosuch'", said)
        self.assertIn("vanilla", said)

    def test_a_line_without_arguments_is_refused(self):
        self.assertIn(":1:", self.refusal("base vanilla\n"))

    def test_a_name_twice_is_refused(self):
        self.assertIn("named twice", self.refusal("a vanilla -\na series -\n"))

    def test_the_command_line_prints_variant_and_arguments(self):
        out = subprocess.run([sys.executable, SCRIPT, "series-region-off"],
                             capture_output=True, text=True, check=True)
        self.assertEqual(out.stdout, "series bpf_jit_region=off\n")
        bad = subprocess.run([sys.executable, SCRIPT, "nosuch"], capture_output=True, text=True)
        self.assertNotEqual(bad.returncode, 0)
        self.assertIn("unknown configuration 'nosuch' (valid: vanilla", bad.stderr)


if __name__ == "__main__":
    unittest.main()


class VariantsTest(unittest.TestCase):
    """vm/configurations.py is the one reader of vm/variants too."""

    def test_the_committed_variants_and_their_sources(self):
        v = configurations.variants()
        self.assertEqual(v["vanilla"], "pristine")
        self.assertEqual(v["series"], "series")

    def test_a_bad_source_is_refused_naming_the_valid_ones(self):
        with tempfile.NamedTemporaryFile("w", suffix="variants", delete=False) as f:
            f.write("odd  elsewhere  nothing\n")
        try:
            with self.assertRaises(configurations.Error) as e:
                configurations.variants(f.name)
            self.assertIn("source: pristine or series", str(e.exception))
        finally:
            os.unlink(f.name)

    def test_command_line(self):
        tool = os.path.join(TOP, "vm", "configurations.py")
        out = subprocess.run([sys.executable, tool, "--variants"], capture_output=True,
                             text=True, check=True).stdout.split()
        self.assertEqual(out, list(configurations.variants()))
        src = subprocess.run([sys.executable, tool, "--source", "series"], capture_output=True,
                             text=True, check=True).stdout.strip()
        self.assertEqual(src, "series")
        bad = subprocess.run([sys.executable, tool, "--source", "nosuch"], capture_output=True,
                             text=True)
        self.assertNotEqual(bad.returncode, 0)
        self.assertIn("unknown variant 'nosuch'", bad.stderr)
