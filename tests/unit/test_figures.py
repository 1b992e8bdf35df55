"""tests/figures.py: every figure of the README and the cover letter traces to a committed run."""
import os
import tempfile
import unittest

import figures


class FakeRuns:
    """Run ids to the numbers they hold; None for a run that is not committed."""

    def __init__(self, runs):
        self.runs = runs

    def numbers(self, run_id):
        return self.runs.get(run_id)


RUNS = FakeRuns({"20261207-154951-quick": {54400.0, 51376.0, 1.042, 121.0, 7.19}})


def check(text, listed=None):
    with tempfile.NamedTemporaryFile("w", suffix=".md", dir=figures.TOP, delete=False) as f:
        f.write(text)
    try:
        name = os.path.basename(f.name)
        listed = {(name, k): v for k, v in (listed or {}).items()}
        return [(fig, why) for _, _, fig, why, _ in figures.check([name], RUNS, listed)]
    finally:
        os.unlink(f.name)


class DocumentsTest(unittest.TestCase):
    def test_every_figure_traced(self):
        bad = figures.check(figures.DOCUMENTS)
        self.assertEqual(bad, [], "\n".join(f"{d}:{n}: {fig}: {why}" for d, n, fig, why, _ in bad))


class CheckerTest(unittest.TestCase):
    def test_figures_of_the_named_run_pass(self):
        self.assertEqual(check("In run 20261207-154951 the ratio is 1.042, 54,400 against"
                               " 51,376 (dispatcher +121.0)."), [])

    def test_a_figure_only_a_rounded_number_gives_fails(self):
        # 7.19 rounds to 7.2: a table of thousands of numbers would match most short decimals.
        bad = check("In run 20261207-154951 QEMU 7.2 ran.")
        self.assertEqual([f for f, _ in bad], ["7.2"])

    def test_a_declared_non_measurement_is_read_before_the_run(self):
        self.assertEqual(check("In run 20261207-154951 the dispatcher took 121.0.",
                               {"121.0": ("not-run", "a version", 1)}), [])
        bad = check("In run 20261207-154951 the dispatcher took 121.0.",
                    {"121.0": ("derived", "1 + 1", 1)})
        self.assertEqual(bad, [], "a derived entry does not hide a figure the run holds")

    def test_a_figure_the_run_lacks_fails(self):
        bad = check("In run 20261207-154951 the ratio is 1.043.")
        self.assertEqual([f for f, _ in bad], ["1.043"])
        self.assertIn("not in run(s) 20261207-154951-quick", bad[0][1])

    def test_a_unit_without_a_run_carries_the_last_in_its_section(self):
        self.assertEqual(check("# A\n\nRun 20261207-154951.\n\nThen 1.042.\n"), [])
        bad = check("# A\n\nRun 20261207-154951.\n\n# B\n\nThen 1.042.\n")
        self.assertIn("the unit names no run", bad[0][1])

    def test_a_run_not_committed_fails(self):
        bad = check("Run 20991231-000000 gave 1.042.")
        self.assertIn("not committed: 20991231-000000-quick", bad[0][1])

    def test_what_is_no_figure_is_skipped(self):
        self.assertEqual(check("On 6.12, `--rounds 312`, 128 MiB, 5%, in 2024,"
                               " https://lore.kernel.org/r/20221028081255.19157-1-a@b.com."), [])

    def test_derived_figures_are_computed(self):
        text = "Run 20261207-154951: 3,024 more."
        self.assertEqual(check(text, {"3,024": ("derived", "54,400 - 51,376", 1)}), [])
        wrong = check(text, {"3,024": ("derived", "54,400 - 51,000", 1)})
        self.assertIn("is 3400, not 3,024", wrong[0][1])
        absent = check("Run 20261207-154951: 3,400 more.",
                       {"3,400": ("derived", "54,400 - 51,000", 1)})
        self.assertIn("51000 of 54,400 - 51,000 not in run(s)", absent[0][1])

    def test_a_claim_must_be_checked_for_the_document(self):
        bad = check("Run 20261207-154951: 231 rounds.", {"231": ("claim", "pmu", 1)})
        self.assertIn("checks no pmu claim in", bad[0][1])

    def test_list_parses(self):
        listed = figures.load_list()
        self.assertTrue(all(kind in figures.KINDS for kind, _, _ in listed.values()))


if __name__ == "__main__":
    unittest.main()
