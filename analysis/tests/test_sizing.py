"""sizing: the kernel geometry, the fit on the fill fixture, the check, and what is left out."""
import json
import unittest

import runs
import sizing
from tests import helpers
from tests import make_fixtures

MIB = 1024 * 1024
# Objects per 2 MiB pack the fill fixture is built from (make_fixtures.py):
# 32768 chunks of 64 bytes over 9, 33, 3583, 11 and 70 chunks an object, and
# 77 on average for mix.
PER_PACK = {"p50": 3640, "p75": 992, "largest": 9, "trampoline": 2978, "struct_ops": 468,
            "mix": 425}


def fill_sample(config, size, cls, metric, value, rnd=0):
    return runs.Sample(config, "wall", 0, "fill", cls, str(size), metric, "count", rnd, False,
                       float(value))


def fill_rows(config, size, cls, per_pack, **override):
    """The round-0 rows of one class at one size, following the geometry; override
    replaces a metric's value."""
    n = sizing.packs(size * MIB)
    metrics = {"objects": per_pack * n, "errno": 524, "region_failure": 1, "allocations": n,
               "in_use_bytes": n * 2 * MIB, "high_water_bytes": n * 2 * MIB,
               "object_jited_bytes": 500, "back_to_start": 1}
    metrics.update(override)
    return [fill_sample(config, size, cls, m, v) for m, v in metrics.items()]


def fill_run(samples, sizes=(4, 8, 16)):
    """An in-memory run: vanilla plus one fill configuration per size."""
    fill = [f"region-{s}m" for s in sizes]
    meta = {"run_id": "20260101-000000-t", "baseline": "vanilla",
            "configurations": {c: {"variant": "series"} for c in ["vanilla"] + fill},
            "boots": [], "fill_configurations": fill}
    return runs.Run("/nonexistent", meta, samples)


def simple_run(sizes=(4, 8, 16), override=None):
    """p50 at 3640 a pack at every size; override: {(size, metric): value}."""
    samples = []
    for s in sizes:
        extra = {m: v for (sz, m), v in (override or {}).items() if sz == s}
        samples += fill_rows(f"region-{s}m", s, "p50", 3640, **extra)
    return fill_run(samples, sizes)


class GeometryTest(unittest.TestCase):
    def test_packs_with_4k_pages(self):
        # A pack takes 2 MiB + a 4 KiB guard page of the region.
        for mib, n in ((4, 1), (8, 3), (16, 7), (32, 15), (64, 31), (128, 63), (1024, 511),
                       (4096, 2044)):
            self.assertEqual(sizing.packs(mib * MIB), n, mib)

    def test_packs_with_16k_and_64k_pages_and_numa(self):
        self.assertEqual(sizing.packs(128 * MIB, 16384), 63)
        self.assertEqual(sizing.packs(1024 * MIB, 16384), 508)
        self.assertEqual(sizing.packs(1024 * MIB, 65536), 496)
        self.assertEqual(sizing.packs(128 * MIB, 65536), 62)
        self.assertEqual(sizing.packs(8 * MIB, nodes=2), 1)
        self.assertEqual(sizing.pack_va_bytes(), 2 * MIB + 4096)

    def test_page_tables(self):
        self.assertEqual(sizing.page_tables(64 * MIB, 4096),
                         {"pte_tables": 32, "pmd_tables": 1, "bytes": 33 * 4096})
        self.assertEqual(sizing.page_tables(4096 * MIB, 4096),
                         {"pte_tables": 2048, "pmd_tables": 4, "bytes": 2052 * 4096})
        self.assertEqual(sizing.page_tables(64 * MIB, 16384),
                         {"pte_tables": 2, "pmd_tables": 1, "bytes": 3 * 16384})
        self.assertEqual(sizing.page_tables(512 * MIB, 65536)["pte_tables"], 1)
        self.assertEqual(sizing.page_tables(1024 * MIB, 65536),
                         {"pte_tables": 2, "pmd_tables": 1, "bytes": 3 * 65536})

    def test_per_pack_at_other_page_sizes(self):
        self.assertEqual(sizing.per_pack_at_page("p50", 3640, 65536), 3640)
        self.assertEqual(sizing.per_pack_at_page("mix", 425.5, 16384), 425.5)
        # A struct_ops object that is one page alone: 512, 128, 32 a pack.
        for page, n in ((4096, 512), (16384, 128), (65536, 32)):
            self.assertAlmostEqual(sizing.per_pack_at_page("struct_ops", 512, page), n)
        # One page plus 384 bytes of member programs: 468 at 4 KiB.
        rest = 2 * MIB / 468 - 4096
        self.assertAlmostEqual(sizing.per_pack_at_page("struct_ops", 468, 16384),
                               2 * MIB / (16384 + rest))


class FixtureModelTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.fill = runs.load(helpers.FILL)
        cls.result = sizing.model(cls.fill)

    def test_sizes_fitted_and_checked(self):
        r = self.result
        self.assertEqual(r["sizes_mib"], [4, 8, 16, 32])
        self.assertEqual(r["fitted_mib"], [4, 8, 16])
        self.assertEqual(r["checked_mib"], 32)
        self.assertEqual(r["classes"], list(PER_PACK))

    def test_fit_reproduces_the_fixtures_objects_per_pack(self):
        self.assertEqual(make_fixtures.fill_per_pack(), PER_PACK)
        for cls, n in PER_PACK.items():
            fit = self.result["fit"][cls]
            self.assertEqual(fit["objects_per_pack"], {"mean": n, "min": n, "max": n}, cls)
            self.assertEqual(sorted(fit["per_size"]), [4, 8, 16], cls)

    def test_churn_efficiency(self):
        e = self.result["fit"]["mix"]["churn_efficiency"]
        self.assertEqual(e["round"], 3)
        self.assertAlmostEqual(e["mean"], 0.93, delta=0.001)
        self.assertNotIn("churn_efficiency", self.result["fit"]["p50"])

    def test_allocations_agree_with_the_va_rule(self):
        for p in self.result["measured"]:
            self.assertEqual(p["allocations"], p["predicted_packs"], p)
            self.assertTrue(p["allocations_agree"])
        self.assertEqual(self.result["notes"], [])

    def test_check_against_the_unfitted_largest_size(self):
        rows = {c["class"]: c for c in self.result["check"]}
        self.assertEqual(list(rows), ["p50", "p75", "largest", "trampoline", "struct_ops",
                                      "mix", "mix after churn"])
        tramp = rows["trampoline"]
        self.assertEqual((tramp["size_mib"], tramp["predicted"], tramp["measured"]),
                         (32, 2978 * 15, 2978 * 15 - 2))
        self.assertAlmostEqual(tramp["relative_error"], 2 / (2978 * 15 - 2))
        self.assertEqual(rows["p50"]["relative_error"], 0)
        churn = rows["mix after churn"]
        self.assertEqual(churn["measured"], 5926)  # kept + loaded again, round 3, 32 MiB
        self.assertAlmostEqual(churn["predicted"],
                               self.result["fit"]["mix"]["churn_efficiency"]["mean"] * 425 * 15)
        self.assertTrue(all(c["within_tolerance"] for c in rows.values()))

    def test_predictions(self):
        pred = {p["size_mib"]: p for p in self.result["predictions"]}
        self.assertEqual(sorted(pred), [64, 128, 256, 512, 1024, 2048, 4096])
        self.assertEqual(pred[128]["packs"], 63)
        self.assertEqual(pred[128]["objects"]["p50"], 3640 * 63)
        self.assertEqual(pred[1024]["objects"]["largest"], 9 * 511)
        by_page = {p["page"]: p for p in self.result["page_sizes"]}
        self.assertEqual(by_page["64K"]["predictions"][4]["packs"], 496)
        self.assertEqual(by_page["64K"]["objects_per_pack"]["p75"], 992)
        self.assertLess(by_page["16K"]["objects_per_pack"]["struct_ops"], 128)

    def test_json_serialisable(self):
        back = json.loads(json.dumps(self.result))
        self.assertEqual(back["checked_mib"], 32)

    def test_markdown(self):
        md = sizing.markdown(self.result)
        self.assertIn("- sizes: fitted on 4 MiB, 8 MiB, 16 MiB; checked against 32 MiB"
                      " (measured, not fitted)", md)
        self.assertIn("## Check at 32 MiB (not fitted)", md)
        self.assertIn("| trampoline | 44,670 | 44,668 | +0.00% | yes |", md)
        self.assertIn("All 7 checked predictions are within 5%.", md)
        self.assertIn("| 128 MiB | 63 | 229,320 | 62,496 | 567 |", md)
        self.assertIn("| 64 MiB | 132 KiB (32 PTE + 1 PMD) | 48 KiB (2 PTE + 1 PMD)"
                      " | 128 KiB (1 PTE + 1 PMD) |", md)
        self.assertIn("computed from the page geometry, not measured", md)
        self.assertIn("| 4 MiB | series-region-4m | p50 | fitted | 3,640 | 1 | 1 | yes | 3,640"
                      " | 524 ENOTSUPP | yes | 2 MiB | 2 MiB | 500 | yes |", md)
        self.assertIn("N x 2 MiB", md)

    def test_summary_lines(self):
        text = "\n".join(sizing.summary_lines(self.result))
        self.assertIn("predicted at 128 MiB (63 packs): p50 229,320, p75 62,496", text)
        self.assertIn("predicted at 1 GiB (511 packs): p50 1,860,040", text)
        self.assertIn("check at 32 MiB: p50 +0.00%", text)
        self.assertIn("All 7 checked predictions are within 5%.", text)

    def test_series_for_the_plot(self):
        measured = sizing.measured_series(self.result)
        self.assertEqual(measured["p50"], [(4, 3640), (8, 10920), (16, 25480), (32, 54600)])
        self.assertEqual(measured["mix after churn"][-1], (32, 5926))
        model = sizing.model_series(self.result, [4, 1024])
        self.assertEqual(model["largest"], [(4, 9), (1024, 9 * 511)])


class CheckIsNotFittedTest(unittest.TestCase):
    def test_largest_size_changes_the_check_not_the_fit(self):
        run = simple_run((4, 8, 16, 32), {(32, "objects"): 60000})
        r = sizing.model(run)
        self.assertEqual(r["fit"]["p50"]["objects_per_pack"]["mean"], 3640)
        (c,) = r["check"]
        self.assertEqual((c["predicted"], c["measured"]), (3640 * 15, 60000))
        self.assertAlmostEqual(c["relative_error"], (3640 * 15 - 60000) / 60000)
        self.assertFalse(c["within_tolerance"])
        self.assertEqual(sizing.verdict(r), "Not within 5%: p50.")

    def test_spread_of_the_fit(self):
        # 8 MiB: 3 packs with 3 * 3600 objects: the mean is taken over the fitted sizes.
        r = sizing.model(simple_run((4, 8, 16, 32), {(8, "objects"): 3 * 3600}))
        n = r["fit"]["p50"]["objects_per_pack"]
        self.assertEqual((n["min"], n["max"]), (3600, 3640))
        self.assertAlmostEqual(n["mean"], (3640 + 3600 + 3640) / 3)


class LeftOutTest(unittest.TestCase):
    def test_failure_not_the_region_is_left_out(self):
        r = sizing.model(simple_run((4, 8, 16), {(8, "region_failure"): 0}))
        self.assertEqual(sorted(r["fit"]["p50"]["per_size"]), [4])
        self.assertIn("p50 at 8 MiB: left out of the fit and the check: the failure was not the"
                      " region being full", r["notes"])

    def test_allocations_disagreeing_and_leaks_are_noted(self):
        r = sizing.model(simple_run((4, 8), {(8, "allocations"): 2, (4, "back_to_start"): 0}))
        self.assertIn("p50 at 8 MiB: 2 allocations at the failure, the VA rule predicts 3 packs",
                      r["notes"])
        self.assertTrue(any(n.startswith("p50 at 4 MiB: the region's use did not return")
                            for n in r["notes"]))

    def test_one_size_is_fitted_and_not_checked(self):
        r = sizing.model(simple_run((8,)))
        self.assertEqual((r["fitted_mib"], r["checked_mib"], r["check"]), ([8], None, []))
        self.assertIn("only one region size measured", r["notes"][0])
        self.assertIn("no larger size measured", sizing.markdown(r))

    def test_class_missing_at_the_checked_size(self):
        samples = simple_run((4, 8)).samples + fill_rows("region-4m", 4, "p75", 992)
        r = sizing.model(fill_run(samples, (4, 8)))
        rows = {c["class"]: c for c in r["check"]}
        self.assertIsNone(rows["p75"]["relative_error"])
        self.assertEqual(rows["p75"]["why_not_checked"], "not measured")
        self.assertEqual(sizing.verdict(r),
                         "All 1 checked predictions are within 5%. Not checked: p75.")

    def test_fill_configuration_without_samples_is_noted(self):
        run = simple_run((4, 8))
        run.fill_configs.append("region-16m")
        self.assertIn("fill configurations without fill samples: region-16m",
                      sizing.model(run)["notes"])


class ErrorTest(unittest.TestCase):
    def test_no_fill_samples(self):
        self.assertIsNone(sizing.model(runs.load(helpers.OK)))

    def test_x_not_a_size(self):
        run = fill_run([fill_sample("region-4m", "big", "p50", "objects", 1)], (4,))
        with self.assertRaises(sizing.SizingError) as e:
            sizing.model(run)
        self.assertIn("region-4m has x 'big'", str(e.exception))
        self.assertIn("region size in MiB, a positive number", str(e.exception))

    def test_one_size_per_configuration_and_configuration_per_size(self):
        run = fill_run(fill_rows("region-4m", 4, "p50", 3640)
                       + fill_rows("region-8m", 4, "p75", 992), (4, 8))
        with self.assertRaises(sizing.SizingError) as e:
            sizing.model(run)
        self.assertIn("region size 4 MiB is measured by both region-4m and region-8m",
                      str(e.exception))
        run = fill_run(fill_rows("region-4m", 4, "p50", 3640)
                       + fill_rows("region-4m", 8, "p75", 992), (4,))
        with self.assertRaises(sizing.SizingError) as e:
            sizing.model(run)
        self.assertIn("region-4m has fill rows for region sizes 4 and 8 MiB", str(e.exception))


class TableSpansTest(unittest.TestCase):
    def test_spans(self):
        self.assertEqual(sizing.table_spans(4096), (2 * MIB, 1024 * MIB))
        self.assertEqual(sizing.table_spans(16384), (32 * MIB, 64 * 1024 * MIB))
        self.assertEqual(sizing.table_spans(65536), (512 * MIB, 4 * 1024 * 1024 * MIB))
