"""tune: the region size for a host from the fill fixture's model, refused inputs, and
the write-protection costs of a run."""
import tempfile
import unittest

import points
import runs
import sizing
import tune
from tests import helpers

MIB = sizing.MIB


class AdviseTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.model = sizing.model(runs.load(helpers.FILL))

    def test_defaults_pick_the_smallest_region_that_holds_the_host(self):
        a = tune.advise(self.model)
        per = tune.per_pack(self.model, "mix")
        # The smallest modelled size whose packs hold the programs with headroom.
        packs = -(-tune.DEFAULT_PROGRAMS * tune.DEFAULT_HEADROOM // per)
        self.assertEqual(a["packs_needed"], packs)
        fits = [s for s in sizing.EXTRAPOLATE_MIB if sizing.program_packs(s * MIB) >= packs]
        self.assertEqual(a["region_mib"], fits[0])
        self.assertGreaterEqual(a["program_packs"], a["packs_needed"])
        self.assertEqual(a["page_tables"]["4K"],
                         sizing.page_tables(a["region_mib"] * MIB, 4096)["bytes"])

    def test_a_small_host_fits_the_smallest_size(self):
        a = tune.advise(self.model, programs=1000, cls="p50")
        self.assertEqual(a["region_mib"], sizing.EXTRAPOLATE_MIB[0])
        self.assertEqual(a["packs_needed"], 1)

    def test_trampolines_count_too(self):
        base = tune.advise(self.model, programs=1000, cls="p50")
        more = tune.advise(self.model, programs=1000, cls="p50", trampolines=100000)
        self.assertGreater(more["packs_needed"], base["packs_needed"])

    def test_stated_error_is_the_check(self):
        a = tune.advise(self.model)
        self.assertAlmostEqual(a["stated_error"], max(
            abs(c["relative_error"]) for c in self.model["check"]
            if c["relative_error"] is not None))

    def test_refused_inputs(self):
        for kwargs, words in (({"cls": "p99"}, "not a program class"),
                              ({"programs": -1}, "0 or more"),
                              ({"headroom": 0.5}, "1 or more"),
                              ({"programs": 10 ** 8}, "do not fit in the largest region")):
            with self.subTest(**kwargs):
                with self.assertRaises(tune.TuneError) as e:
                    tune.advise(self.model, **kwargs)
                self.assertIn(words, str(e.exception))

    def test_lines(self):
        text = "\n".join(tune.lines(tune.advise(self.model)))
        self.assertIn("bpf_jit_region=", text)
        self.assertIn("computed, not measured", text)
        self.assertIn("within 0.05% where checked (at 32 MiB", text)


class CostsTest(unittest.TestCase):
    def test_costs_of_a_pair(self):
        run = runs.load(helpers.FILL)
        c = tune.mode_costs(run, points.Points(run), config="series",
                            reference="series-region-off")
        self.assertTrue(c["load"])
        self.assertTrue(all(ci is None or ci[0] <= r <= ci[1] for _, r, ci in c["load"]))
        text = "\n".join(tune.lines(tune.advise(sizing.model(run)), c))
        self.assertIn("series over series-region-off", text)

    def test_a_run_without_the_pair_is_refused(self):
        run = runs.load(helpers.OK)
        with self.assertRaises(tune.TuneError) as e:
            tune.mode_costs(run, points.Points(run))
        self.assertIn("has no configuration 'series-wp-off'", str(e.exception))


class CliTest(unittest.TestCase):
    def test_cli_answers_and_refuses(self):
        with tempfile.TemporaryDirectory() as empty:
            ok = helpers.run_cli("tune", "--sizing-run", helpers.FILL, "--results", empty)
        self.assertEqual(ok.returncode, 0, ok.stderr)
        self.assertIn("bpf_jit_region=1024M", ok.stdout)
        self.assertIn("write protection: no complete run with load samples", ok.stdout)
        nopair = helpers.run_cli("tune", "--sizing-run", helpers.FILL, "--cost-run", helpers.FILL)
        self.assertEqual(nopair.returncode, 2, nopair.stdout)   # no series-wp-off in it
        self.assertIn("has no configuration 'series-wp-off'", nopair.stderr)
        bad = helpers.run_cli("tune", "--sizing-run", helpers.FILL, "--class", "p99")
        self.assertEqual(bad.returncode, 2)
        self.assertEqual(bad.stderr.count("\n"), 1, bad.stderr)
        self.assertIn("analysis/tune: error: class 'p99' is not a program class", bad.stderr)


if __name__ == "__main__":
    unittest.main()
