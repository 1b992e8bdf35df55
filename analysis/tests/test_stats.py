"""stats: order statistics and the bootstrap on inputs with known answers."""
import random
import unittest

import stats


class MedianPercentileTest(unittest.TestCase):
    def test_median_odd_even_single(self):
        self.assertEqual(stats.median([3, 1, 2]), 2)
        self.assertEqual(stats.median([4, 1, 3, 2]), 2.5)
        self.assertEqual(stats.median([7.5]), 7.5)

    def test_percentiles_of_1_to_100(self):
        v = list(range(1, 101))
        random.Random(0).shuffle(v)
        self.assertAlmostEqual(stats.percentile(v, 5), 5.95)
        self.assertAlmostEqual(stats.percentile(v, 95), 95.05)
        self.assertEqual(stats.percentile(v, 50), 50.5)
        self.assertEqual(stats.percentile(v, 0), 1)
        self.assertEqual(stats.percentile(v, 100), 100)

    def test_percentile_of_constant_is_exact(self):
        self.assertEqual(stats.percentile([0.1] * 7, 5), 0.1)
        self.assertEqual(stats.percentile([0.1] * 7, 95), 0.1)

    def test_percentile_rejects_nothing_and_bad_p(self):
        with self.assertRaises(ValueError):
            stats.percentile([], 50)
        with self.assertRaises(ValueError):
            stats.percentile([1, 2], 101)


class BootstrapTest(unittest.TestCase):
    def setUp(self):
        rng = random.Random(3)
        self.base = [100 + rng.gauss(0, 2) for _ in range(30)]
        self.other = [110 + rng.gauss(0, 2.2) for _ in range(30)]

    def test_ci_contains_true_ratio(self):
        ratio, (lo, hi) = stats.ratio_ci(self.base, self.other)
        self.assertLess(lo, 1.1)
        self.assertGreater(hi, 1.1)
        self.assertLessEqual(lo, ratio)
        self.assertLessEqual(ratio, hi)
        self.assertLess(hi - lo, 0.05)

    def test_ci_contains_true_delta(self):
        delta, (lo, hi) = stats.delta_ci(self.base, self.other)
        self.assertLess(lo, 10)
        self.assertGreater(hi, 10)

    def test_deterministic_with_the_seed(self):
        self.assertEqual(stats.ratio_ci(self.base, self.other),
                         stats.ratio_ci(self.base, self.other))
        self.assertEqual(stats.ratio_ci(self.base, self.other, seed=7),
                         stats.ratio_ci(self.base, self.other, seed=7))
        self.assertNotEqual(stats.ratio_ci(self.base, self.other, seed=7),
                            stats.ratio_ci(self.base, self.other, seed=8))

    def test_identical_constant_samples_ratio_exactly_one(self):
        ratio, ci = stats.ratio_ci([1234.5] * 10, [1234.5] * 10)
        self.assertEqual(ratio, 1.0)
        self.assertEqual(ci, (1.0, 1.0))

    def test_identical_varying_samples_ratio_exactly_one(self):
        ratio, (lo, hi) = stats.ratio_ci(self.base, list(self.base))
        self.assertEqual(ratio, 1.0)
        self.assertLessEqual(lo, 1.0)
        self.assertGreaterEqual(hi, 1.0)

    def test_constant_offset_gives_exact_delta(self):
        delta, ci = stats.delta_ci([23.0] * 5, [28.0] * 5)
        self.assertEqual(delta, 5.0)
        self.assertEqual(ci, (5.0, 5.0))

    def test_single_samples_have_no_interval(self):
        self.assertEqual(stats.ratio_ci([10.0], [12.0]), (1.2, None))
        self.assertEqual(stats.delta_ci([10.0, 10.0], [12.0]), (2.0, None))

    def test_zero_baseline_has_no_ratio(self):
        ratio, rci, delta, dci = stats.compare([0.0, 0.0, 0.0], [1.0, 2.0, 3.0])
        self.assertIsNone(ratio)
        self.assertIsNone(rci)
        self.assertEqual(delta, 2.0)
        self.assertIsNotNone(dci)

    def test_compare_needs_both_sides(self):
        with self.assertRaises(ValueError):
            stats.compare([], [1.0])


class BootBootstrapTest(unittest.TestCase):
    def test_figures_are_the_pooled_ones(self):
        base, other = [[10, 11, 12], [13, 14]], [[20, 22], [24, 26, 28]]
        ratio, _, delta, _ = stats.compare_boots(base, other)
        self.assertEqual(ratio, stats.median([20, 22, 24, 26, 28]) / stats.median([10, 11, 12, 13, 14]))
        self.assertEqual(delta, 24 - 12)

    def test_one_boot_has_no_interval(self):
        r = stats.compare_boots([[1, 2, 3, 4]], [[2, 3, 4, 5], [3, 4, 5, 6]])
        self.assertIsNone(r[1])
        self.assertIsNone(r[3])

    def test_boot_to_boot_spread_widens_the_interval(self):
        # The same values, tight within a boot, far apart between boots: a
        # bootstrap over rounds sees 30 values and a narrow median; one over
        # boots sees the three boots' levels.
        base = [[100 + i * 0.01 for i in range(10)] for _ in range(3)]
        other = [[v + shift for v in base[0]] for shift in (0, 10, 20)]
        _, rounds_ci, _, _ = stats.compare([v for b in base for v in b],
                                           [v for b in other for v in b])
        _, boots_ci, _, _ = stats.compare_boots(base, other)
        self.assertLess(rounds_ci[1] - rounds_ci[0], boots_ci[1] - boots_ci[0])
        self.assertLessEqual(boots_ci[0], 1.0)
        self.assertGreater(boots_ci[1], 1.19)

    def test_deterministic(self):
        b, o = [[1, 2], [3, 4], [5, 6]], [[2, 3], [4, 5], [6, 9]]
        self.assertEqual(stats.compare_boots(b, o), stats.compare_boots(b, o))


class MedianIntervalTest(unittest.TestCase):
    def test_order_statistics_and_coverage(self):
        # n = 11: [x(2), x(10)], coverage 1 - 2 * (1 + 11) / 2048.
        lo, hi, cov = stats.median_interval([5, 1, 9, 3, 7, 11, 2, 10, 4, 8, 6])
        self.assertEqual((lo, hi), (2, 10))
        self.assertAlmostEqual(cov, 1 - 2 * 12 / 2048)
        # n = 20: [x(6), x(15)], coverage 1 - 2 P(B(20, 1/2) <= 5).
        lo, hi, cov = stats.median_interval(list(range(1, 21)))
        self.assertEqual((lo, hi), (6, 15))
        self.assertAlmostEqual(cov, 0.958610534, places=8)

    def test_too_few_for_95_percent(self):
        self.assertIsNone(stats.median_interval([1, 2, 3, 4, 5]))
        self.assertEqual(stats.median_interval([3, 1, 2, 6, 5, 4])[:2], (1, 6))

    def test_ties_give_a_tied_interval(self):
        self.assertEqual(stats.median_interval([0.971] * 7)[:2], (0.971, 0.971))


class PairedRatiosTest(unittest.TestCase):
    def test_pairs_by_round_and_skips_unpaired_and_zero(self):
        base = {(0, 1): 100, (0, 2): 200, (0, 3): 0, (0, 4): 50}
        other = {(0, 1): 110, (0, 2): 300, (0, 3): 5, (0, 5): 1}
        self.assertEqual(stats.paired_ratios(base, other), [1.1, 1.5])

    def test_shared_outlier_cancels(self):
        # Round 3 of both meets the same interruption: the pooled medians'
        # bootstrap sees it, the per-round ratio does not.
        base = {(0, r): v for r, v in enumerate([100, 101, 150, 100, 99, 100])}
        other = {(0, r): v * 1.02 for r, v in base.items()}
        r = stats.paired_ratios(base, other)
        self.assertTrue(all(abs(x - 1.02) < 1e-12 for x in r))
