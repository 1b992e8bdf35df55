"""sizing: the kernel geometry, the fit on the fill fixture, the check, and what is left out."""
import json
import os
import tempfile
import unittest

import plots
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
        self.assertEqual(r["checked_sizes_mib"], [32])
        self.assertEqual(r["classes"], list(PER_PACK))
        # Every class is measured at every size: each has the same held-out size.
        for cls, f in r["fit"].items():
            self.assertEqual((f["usable_mib"], f["fitted_mib"], f["checked_mib"],
                              f["why_not_checked"]), ([4, 8, 16, 32], [4, 8, 16], 32, ""), cls)

    def test_fit_reproduces_the_fixtures_objects_per_pack(self):
        self.assertEqual(make_fixtures.fill_per_pack(), PER_PACK)
        for cls, n in PER_PACK.items():
            fit = self.result["fit"][cls]
            self.assertEqual(fit["objects_per_pack"], {"mean": n, "min": n, "max": n}, cls)
            self.assertEqual(sorted(fit["per_size"]), [4, 8, 16], cls)

    def test_churn_efficiency(self):
        e = self.result["fit"]["mix"]["churn_efficiency"]
        self.assertEqual(e["round"], 3)
        # Each fitted size: the mean of its last (up to 5) rounds, 0.960, 0.945, 0.930.
        self.assertAlmostEqual(e["mean"], 0.945, delta=0.001)
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
        # kept + loaded again, the mean of rounds 1-3 at 32 MiB
        self.assertEqual(churn["measured"], (6117 + 6022 + 5926) / 3)
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
        self.assertIn("| trampoline | 32 MiB | 44,670 | 44,668 | +0.00% | yes |", md)
        self.assertIn("| p50 | 3,640 | 3,640 | 3,640 | 0.0% | 4 MiB: 3,640; 8 MiB: 3,640;"
                      " 16 MiB: 3,640 | 32 MiB |", md)
        self.assertIn("All 7 checked predictions are within 5%.", md)
        self.assertIn("| 128 MiB | 63 | 63 | 229,320 | 62,496 | 567 |", md)
        self.assertIn("| 64 MiB | 132 KiB (32 PTE + 1 PMD) | 48 KiB (2 PTE + 1 PMD)"
                      " | 128 KiB (1 PTE + 1 PMD) |", md)
        self.assertIn("computed from the page geometry, not measured", md)
        self.assertIn("| 4 MiB | series-region-4m | p50 | fitted | 3,640 | 1 | 1 | yes | 3,640"
                      " | 524 ENOTSUPP | yes | 2 MiB | 2 MiB | 500 | yes |", md)
        self.assertIn("| 32 MiB | series-region-32m | p50 | checked | 54,600 |", md)
        self.assertIn("N x 2 MiB", md)

    def test_summary_lines(self):
        text = "\n".join(sizing.summary_lines(self.result))
        self.assertIn("predicted at 128 MiB (63 packs for programs): p50 229,320, p75 62,496", text)
        self.assertIn("predicted at 1 GiB (511 packs for programs): p50 1,860,040", text)
        self.assertIn("check at 32 MiB: p50 +0.00%", text)
        self.assertNotIn("; at ", text)
        self.assertIn("All 7 checked predictions are within 5%.", text)

    def test_series_for_the_plot(self):
        measured = sizing.measured_series(self.result)
        self.assertEqual(measured["p50"], [(4, 3640), (8, 10920), (16, 25480), (32, 54600)])
        # The mean after churn over the last (here all three) rounds at 32 MiB.
        self.assertEqual(measured["mix after churn"][-1], (32, (6117 + 6022 + 5926) / 3))
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
        self.assertEqual((r["fitted_mib"], r["checked_mib"], r["checked_sizes_mib"]),
                         ([8], None, []))
        self.assertEqual((r["fit"]["p50"]["fitted_mib"], r["fit"]["p50"]["checked_mib"]),
                         ([8], None))
        (c,) = r["check"]
        self.assertEqual((c["class"], c["size_mib"], c["predicted"], c["within_tolerance"]),
                         ("p50", None, None, None))
        self.assertEqual(c["why_not_checked"],
                         "one usable size (8 MiB), fitted on it: none left to check it against")
        self.assertIn("only one region size measured", r["notes"][0])
        md = sizing.markdown(r)
        self.assertIn("- sizes: fitted on 8 MiB; no other usable size measured to check it"
                      " against", md)
        self.assertIn("## Check (not fitted)", md)
        self.assertIn("| p50 | - | - | - | - | not checked: one usable size (8 MiB)", md)
        self.assertEqual(sizing.verdict(r), "No prediction checked. Not checked: p50.")

    def test_class_measured_at_one_size_only(self):
        # p75 only at 4 MiB: fitted on it and not checked; p50 is still checked at 8 MiB.
        samples = simple_run((4, 8)).samples + fill_rows("region-4m", 4, "p75", 992)
        r = sizing.model(fill_run(samples, (4, 8)))
        rows = {c["class"]: c for c in r["check"]}
        self.assertEqual(r["fit"]["p75"]["objects_per_pack"]["mean"], 992)
        self.assertEqual((r["fit"]["p75"]["fitted_mib"], r["fit"]["p75"]["checked_mib"]),
                         ([4], None))
        self.assertIsNone(rows["p75"]["relative_error"])
        self.assertIsNone(rows["p75"]["size_mib"])
        self.assertIn("one usable size (4 MiB)", rows["p75"]["why_not_checked"])
        self.assertEqual(rows["p50"]["size_mib"], 8)
        self.assertEqual(sizing.verdict(r),
                         "All 1 checked predictions are within 5%. Not checked: p75.")
        self.assertEqual(sizing.checked_line(r),
                         "p50 fitted on 4 MiB and checked against 8 MiB; p75 fitted on 4 MiB"
                         " and not checked (no other usable size) (each at its largest usable"
                         " size: measured, not fitted)")
        text = "\n".join(sizing.summary_lines(r))
        self.assertIn("check at 8 MiB: p50 +0.00%; not checked: p75 (one usable size"
                      " (4 MiB),", text)

    def test_unusable_largest_point_moves_the_check_down(self):
        # 32 MiB failed for another reason than the region being full: p50 is fitted on
        # 4 and 8 MiB and checked at 16 MiB, its largest usable size.
        r = sizing.model(simple_run((4, 8, 16, 32), {(32, "region_failure"): 0}))
        f = r["fit"]["p50"]
        self.assertEqual((f["usable_mib"], f["fitted_mib"], f["checked_mib"]),
                         ([4, 8, 16], [4, 8], 16))
        (c,) = r["check"]
        self.assertEqual((c["size_mib"], c["predicted"], c["measured"]), (16, 3640 * 7, 3640 * 7))
        roles = {p["size_mib"]: sizing.point_role(r, p) for p in r["measured"]}
        self.assertEqual(roles, {4: "fitted", 8: "fitted", 16: "checked", 32: "left out"})
        self.assertIn("p50 at 32 MiB: left out of the fit and the check: the failure was not"
                      " the region being full", r["notes"])

    def test_fill_configuration_without_samples_is_noted(self):
        run = simple_run((4, 8))
        run.fill_configs.append("region-16m")
        self.assertIn("fill configurations without fill samples: region-16m",
                      sizing.model(run)["notes"])


def fixture_without(run, drop):
    """The fill fixture without the rows of drop: {class: sizes in MiB}."""
    keep = [s for s in run.samples
            if not (s.workload == "fill" and sizing.size_of(s.x, s.config) in drop.get(s.case, ()))]
    return runs.Run(run.path, run.metadata, keep)


class PerClassSizesTest(unittest.TestCase):
    """The fill fixture with trampoline and struct_ops measured at 4 and 8 MiB only (as in
    the quick profile) and mix at 4 to 16 MiB: each class is checked at its own largest
    size, fitted on the ones below it."""

    @classmethod
    def setUpClass(cls):
        run = fixture_without(runs.load(helpers.FILL),
                              {"trampoline": (16, 32), "struct_ops": (16, 32), "mix": (32,)})
        cls.result = sizing.model(run)

    def test_sizes_per_class(self):
        r = self.result
        want = {"p50": ([4, 8, 16], 32), "p75": ([4, 8, 16], 32), "largest": ([4, 8, 16], 32),
                "trampoline": ([4], 8), "struct_ops": ([4], 8), "mix": ([4, 8], 16)}
        self.assertEqual({c: (f["fitted_mib"], f["checked_mib"]) for c, f in r["fit"].items()},
                         want)
        self.assertEqual(sorted(r["fit"]["trampoline"]["per_size"]), [4])
        # The top level: every size some class is fitted on, and where they are checked.
        self.assertEqual((r["fitted_mib"], r["checked_mib"], r["checked_sizes_mib"]),
                         ([4, 8, 16], 32, [8, 16, 32]))
        self.assertEqual(r["notes"], [])

    def test_check_at_each_class_size(self):
        rows = {c["class"]: c for c in self.result["check"]}
        self.assertEqual({c: r["size_mib"] for c, r in rows.items()},
                         {"p50": 32, "p75": 32, "largest": 32, "trampoline": 8,
                          "struct_ops": 8, "mix": 16, "mix after churn": 16})
        self.assertEqual((rows["trampoline"]["predicted"], rows["trampoline"]["measured"]),
                         (2978 * 3, 2978 * 3))
        self.assertEqual((rows["struct_ops"]["predicted"], rows["struct_ops"]["measured"]),
                         (468 * 3, 468 * 3))
        self.assertEqual(rows["struct_ops"]["relative_error"], 0)
        self.assertEqual(rows["mix"]["predicted"], 425 * 7)
        self.assertTrue(all(c["within_tolerance"] for c in rows.values()))
        self.assertEqual(sizing.verdict(self.result), "All 7 checked predictions are within 5%.")

    def test_churn_follows_the_class_sizes(self):
        e = self.result["fit"]["mix"]["churn_efficiency"]
        self.assertEqual(sorted(e["per_size"]), [4, 8])
        churn = next(c for c in self.result["check"] if c["class"] == "mix after churn")
        rows = [c for c in self.result["churn"] if c["size_mib"] == 16]
        self.assertEqual(churn["measured"], sum(c["after_churn_objects"] for c in rows) / 3)
        self.assertAlmostEqual(churn["predicted"], e["mean"] * 425 * 7)

    def test_roles(self):
        roles = {(p["class"], p["size_mib"]): sizing.point_role(self.result, p)
                 for p in self.result["measured"]}
        self.assertEqual(roles[("p50", 8)], "fitted")
        self.assertEqual(roles[("p50", 32)], "checked")
        self.assertEqual(roles[("trampoline", 4)], "fitted")
        self.assertEqual(roles[("trampoline", 8)], "checked")
        self.assertEqual(roles[("mix", 16)], "checked")
        self.assertNotIn(("trampoline", 16), roles)

    def test_predictions_use_each_class_fit(self):
        pred = {p["size_mib"]: p["objects"] for p in self.result["predictions"]}
        self.assertEqual(pred[128]["trampoline"], 2978 * 63)
        self.assertEqual(pred[128]["p50"], 3640 * 63)

    def test_markdown(self):
        md = sizing.markdown(self.result)
        self.assertIn("- sizes: p50, p75, largest fitted on 4 MiB, 8 MiB, 16 MiB and checked"
                      " against 32 MiB; trampoline, struct_ops fitted on 4 MiB and checked"
                      " against 8 MiB; mix fitted on 4 MiB, 8 MiB and checked against 16 MiB"
                      " (each at its largest usable size: measured, not fitted)",
                      md)
        self.assertIn("## Check at 8 MiB, 16 MiB, 32 MiB (not fitted)", md)
        self.assertIn("| trampoline | 8 MiB | 8,934 | 8,934 | +0.00% | yes |", md)
        self.assertIn("| p50 | 32 MiB | 54,600 | 54,600 | +0.00% | yes |", md)
        self.assertIn("| 8 MiB | series-region-8m | trampoline | checked | 8,934 |", md)
        self.assertIn("| 8 MiB | series-region-8m | p50 | fitted | 10,920 |", md)
        self.assertIn("| trampoline | 2,978 | 2,978 | 2,978 | 0.0% | 4 MiB: 2,978 | 8 MiB |", md)

    def test_summary_lines(self):
        text = "\n".join(sizing.summary_lines(self.result))
        self.assertIn("check at 32 MiB: p50 +0.00%, p75 +0.00%, largest +0.00%; at 8 MiB:"
                      " trampoline +0.00%, struct_ops +0.00%; at 16 MiB: mix +0.00%,"
                      " mix after churn ", text)

    def test_json_and_plot(self):
        back = json.loads(json.dumps(self.result))
        self.assertEqual(back["fit"]["trampoline"]["checked_mib"], 8)
        self.assertEqual(sizing.checked_sizes(self.result)["mix after churn"], 16)
        with tempfile.TemporaryDirectory() as d:
            self.assertEqual(plots.sizing(self.result, d), "sizing")
            self.assertEqual(sorted(os.listdir(d)), ["sizing.pdf", "sizing.png"])


def region_rows(config, size, boot_bytes=0, boot_allocations=0, reserve=0, pool=MIB):
    return [fill_sample(config, size, "region", "boot_in_use_bytes", boot_bytes),
            fill_sample(config, size, "region", "boot_allocations", boot_allocations),
            fill_sample(config, size, "region", "reserve_bytes", reserve),
            fill_sample(config, size, "region", "pool_bytes", pool)]


class LayoutTest(unittest.TestCase):
    """A run whose kernel keeps the staging pool in the region and a reserve at its top."""

    def test_packs_less_the_pool_and_the_reserve(self):
        pool = sizing.Layout(MIB, 1, True)
        # 1 GiB: (1024 MiB - 1 MiB - 4 KiB) / (2 MiB + 4 KiB) = 510.5 packs; the default
        # reserve is 32 MiB, 16 packs, which programs do not use.
        self.assertEqual(sizing.packs(1024 * MIB, layout=pool), 510)
        self.assertEqual(sizing.reserve_packs(1024 * MIB, pool), 16)
        self.assertEqual(sizing.program_packs(1024 * MIB, layout=pool), 494)
        self.assertEqual(sizing.packs(1024 * MIB, layout=pool, cls="trampoline"), 510)
        # 128 MiB: 63 packs, a 4 MiB reserve (2 packs); below 64 MiB no reserve.
        self.assertEqual((sizing.packs(128 * MIB, layout=pool),
                          sizing.program_packs(128 * MIB, layout=pool)), (63, 61))
        self.assertEqual(sizing.reserve_packs(32 * MIB, pool), 0)
        self.assertEqual(sizing.packs(4 * MIB, layout=pool), 1)
        # An older run: the whole region, no reserve.
        self.assertEqual(sizing.program_packs(1024 * MIB), 511)

    def test_model_reads_the_layout_from_the_run(self):
        samples = []
        for s in (4, 8, 16):
            samples += region_rows(f"region-{s}m", s)
            samples += fill_rows(f"region-{s}m", s, "p50", 3640)
        r = sizing.model(fill_run(samples))
        self.assertEqual(r["layout"], {"boot_bytes": MIB, "boot_allocations": 1,
                                       "reserve_rule": True})
        self.assertNotIn("region", r["classes"])
        pred = {p["size_mib"]: p for p in r["predictions"]}
        self.assertEqual((pred[128]["packs"], pred[128]["all_packs"]), (61, 63))
        self.assertEqual(pred[128]["objects"]["p50"], 3640 * 61)
        self.assertEqual(r["notes"], [])
        md = sizing.markdown(r)
        self.assertIn("the region held 1 MiB in 1 allocation(s) at boot (the staging pool)", md)
        self.assertIn("floor((S - 1028 KiB) / (2 MiB + 1 page))", md)

    def test_a_reserve_other_than_the_rule_is_noted(self):
        samples = region_rows("region-4m", 4, reserve=2 * MIB) + fill_rows("region-4m", 4,
                                                                             "p50", 3640)
        r = sizing.model(fill_run(samples, (4,)))
        self.assertIn("at 4 MiB the kernel reported a reserve of 2 MiB, the default rule"
                      " gives 0 bytes", " ".join(r["notes"]))


class ChurnTrendTest(unittest.TestCase):
    def trend(self, effs):
        churn = [{"class": "mix", "size_mib": 8, "round": i + 1, "efficiency": e}
                 for i, e in enumerate(effs)]
        return sizing.churn_trends(churn)[0]

    def test_settled_when_the_last_window_keeps_the_mean_of_the_one_before(self):
        # Noisy rounds around 0.93: the last five average as the five before.
        t = self.trend([0.95, 0.90, 0.96, 0.91, 0.93, 0.92, 0.96, 0.90, 0.94, 0.93])
        self.assertTrue(t["settled"])
        self.assertEqual((t["first"], t["last"], t["rounds"]), (0.95, 0.93, 10))
        self.assertAlmostEqual(t["window_mean"], 0.93)
        self.assertEqual((t["window_min"], t["window_max"]), (0.90, 0.96))

    def test_still_falling_is_not_settled(self):
        effs = [0.99 - 0.01 * i for i in range(10)]
        self.assertFalse(self.trend(effs)["settled"])

    def test_too_few_rounds_is_unknown(self):
        self.assertIsNone(self.trend([0.96, 0.95, 0.94, 0.93, 0.92, 0.91])["settled"])


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
