"""conc: percentiles of concurrent loads, per configuration, CPU count and loader count."""
import unittest

import conc
import runs


def sample(config, case, loaders, metric, value, rnd=0):
    return runs.Sample(config, "icount", 0, "conc", case, str(loaders), metric, "ns", rnd,
                       False, float(value))


def batch(config, cpus, loaders, latencies, misses=None, failed=0):
    case = f"cpus{cpus}"
    out = [sample(config, case, loaders, "load_ns", v, i) for i, v in enumerate(latencies)]
    out += [sample(config, case, loaders, "insns", 8, i) for i in range(len(latencies))]
    out.append(sample(config, case, loaders, "failed_loads", failed))
    out.append(sample(config, case, loaders, "batch_ns", sum(latencies)))
    if misses is not None:
        out.append(sample(config, case, loaders, "pool_misses", misses))
    return out


def conc_run(samples, configs=("vanilla", "series"), pairs=()):
    meta = {"run_id": "20260101-000000-t", "baseline": configs[0],
            "configurations": {c: {"variant": "series"} for c in configs},
            "boots": [], "pairs": [list(p) for p in pairs]}
    return runs.Run("/nonexistent", meta, samples)


class SizeTest(unittest.TestCase):
    def test_percentiles_per_program_size(self):
        samples = [sample("a", "cpus2", 2, "load_ns", v, i) for i, v in enumerate([1, 2, 100, 200])]
        samples += [sample("a", "cpus2", 2, "insns", n, i) for i, n in enumerate([8, 8, 4096, 4096])]
        r = conc.model(conc_run(samples, configs=("a",)))
        rows = {x["insns"]: x for x in r["size_rows"]}
        self.assertEqual((rows[8]["p50"], rows[8]["max"]), (1, 2))
        self.assertEqual((rows[4096]["p50"], rows[4096]["max"]), (100, 200))
        self.assertEqual(conc.sizes_of(r), [8, 4096])


class PercentileTest(unittest.TestCase):
    def test_nearest_rank(self):
        v = list(range(1, 101))
        self.assertEqual([conc.percentile(v, q) for q in (50, 95, 99, 100)], [50, 95, 99, 100])
        self.assertEqual(conc.percentile([7], 99), 7)
        # 16 loads: p95 and p99 are the largest (ceil(0.95 * 16) = 16).
        self.assertEqual(conc.percentile(list(range(16)), 95), 15)
        self.assertEqual(conc.percentile(list(range(16)), 50), 7)


class ModelTest(unittest.TestCase):
    def setUp(self):
        lat = [100] * 90 + [200] * 9 + [1000]
        self.run = conc_run(batch("vanilla", 2, 8, lat, misses=None)
                            + batch("series", 2, 8, [2 * v for v in lat], misses=3, failed=1)
                            + batch("series", 4, 1, [150] * 10, misses=0))
        self.result = conc.model(self.run)

    def test_rows(self):
        rows = {(r["config"], r["cpus"], r["loaders"]): r for r in self.result["rows"]}
        v = rows[("vanilla", 2, 8)]
        self.assertEqual((v["loads"], v["p50"], v["p95"], v["p99"], v["max"]),
                         (100, 100, 200, 200, 1000))
        self.assertIsNone(v["pool_misses"])
        s = rows[("series", 2, 8)]
        self.assertEqual((s["p99"], s["pool_misses"], s["failed_loads"]), (400, 3, 1))
        self.assertEqual([(r["config"], r["cpus"], r["loaders"]) for r in self.result["rows"]],
                         [("vanilla", 2, 8), ("series", 2, 8), ("series", 4, 1)])

    def test_ratios_only_where_both_measured(self):
        rows = conc.ratio_rows(self.result, "series", "vanilla")
        self.assertEqual(rows, [("cpus2", 8, {"p50": 2.0, "p95": 2.0, "p99": 2.0})])

    def test_markdown_and_summary_say_there_is_no_interval(self):
        md = conc.markdown(self.result, "r")
        self.assertIn("| series | 2 | 8 | 100 | 200 | 400 | 400 | 2,000 | 1 | 3 |", md)
        self.assertIn("| vanilla | 2 | 8 | 100 | 100 | 200 | 200 | 1,000 | 0 | - |", md)
        self.assertIn("## series / vanilla (one boot each, no interval)", md)
        self.assertIn("| 2 | 8 | all | 2.000 | 2.000 | 2.000 |", md)
        self.assertIn("| 2 | 8 | 8 | 2.000 | 2.000 | 2.000 |", md)
        self.assertIn("| series | 2 | 8 | 8 | 100 | 200 | 400 | 400 | 2,000 |", md)
        text = "\n".join(conc.summary_lines(self.result))
        self.assertIn("each configuration's first icount boot, no interval", text)
        self.assertIn("series, 8 loaders on 2 CPUs: p50 200, p99 400 ns, 1 failed,"
                      " pool misses 3", text)
        self.assertIn("series / vanilla, loads of 8 instructions: 8 on 2 CPUs p50 2.000,"
                      " p99 2.000", text)

    def test_conc_rows_stay_out_of_the_ordinary_tables(self):
        self.assertEqual(self.run.ordinary, [])

    def test_a_repeat_boot_is_not_counted_twice(self):
        repeat = [s._replace(boot=1) for s in batch("vanilla", 2, 1, [5, 6, 7])]
        r = conc.model(conc_run(batch("vanilla", 2, 1, [5, 6, 7]) + repeat))
        self.assertEqual(r["rows"][0]["loads"], 3)

    def test_no_conc_samples(self):
        self.assertIsNone(conc.model(conc_run([])))

    def test_pairs_are_compared_too(self):
        run = conc_run(batch("a", 2, 1, [10]) + batch("b", 2, 1, [20]) + batch("c", 2, 1, [40]),
                       configs=("a", "b", "c"), pairs=[("c", "b")])
        result = conc.model(run)
        self.assertEqual(conc.comparisons(result), [("b", "a"), ("c", "a"), ("c", "b")])
        self.assertEqual(conc.ratio_rows(result, "c", "b")[0][2]["p50"], 2.0)


if __name__ == "__main__":
    unittest.main()
