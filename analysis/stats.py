"""Order statistics and bootstrap intervals, in pure Python.

Everything here is deterministic: the bootstrap draws from its own
random.Random seeded with a fixed value per call, so a table or plot made
twice from the same samples is byte-for-byte the same, and the figures do
not depend on the order in which points are analysed. No numpy: the
statistics must be checkable by reading them, and must run where only the
standard library is.
"""
import math
import random

SEED = 20240521
RESAMPLES = 2000
LEVEL = 0.95


def median(values):
    """The median; the mean of the two middle values for an even count."""
    return percentile(values, 50)


def percentile(values, p):
    """The p-th percentile (0..100) with linear interpolation between ranks.

    Rank (n - 1) * p / 100 of the sorted values, interpolated: numpy's
    default ("linear") method, so 1..100 gives p5 = 5.95 and p95 = 95.05.
    """
    if not values:
        raise ValueError("percentile of no values")
    if not 0 <= p <= 100:
        raise ValueError(f"percentile {p} outside 0..100")
    s = sorted(values)
    rank = (len(s) - 1) * p / 100
    lo = math.floor(rank)
    hi = min(lo + 1, len(s) - 1)
    frac = rank - lo
    if frac == 0 or s[lo] == s[hi]:
        return s[lo]
    return s[lo] + (s[hi] - s[lo]) * frac


def _interval(pairs, statistic, level):
    """Percentile interval of statistic(other_median, base_median) over pairs.

    Resamples where the statistic is undefined (None) are dropped; if more
    than half are, there is no interval.
    """
    values = [v for v in (statistic(mo, mb) for mb, mo in pairs) if v is not None]
    if len(values) * 2 < len(pairs):
        return None
    tail = (1 - level) / 2 * 100
    return percentile(values, tail), percentile(values, 100 - tail)


def _ratio(a, b):
    return a / b if b != 0 else None


def _delta(a, b):
    return a - b


def compare(base, other, resamples=RESAMPLES, seed=SEED, level=LEVEL):
    """(ratio, ratio interval, delta, delta interval) of other against base.

    ratio = median(other) / median(base), None when the base median is 0;
    delta = median(other) - median(base). An interval is a percentile
    bootstrap interval at `level`, or None when either sample has fewer
    than two values (a single measurement has no spread to resample) or
    the statistic is undefined. Constant samples give exact figures and
    zero-width intervals. Both intervals come from one set of resamples.
    Each value is resampled on its own: compare_boots() with one value a boot.
    """
    return compare_boots([[v] for v in base], [[v] for v in other], resamples, seed, level)


def compare_boots(base_boots, other_boots, resamples=RESAMPLES, seed=SEED, level=LEVEL):
    """compare() for samples that come in boots ([[values of one boot], ...]
    per side): the figures are those of the pooled values, but the bootstrap
    resamples whole boots, not values. Rounds of one boot share its state (its
    placement in memory, the host's load while it ran), so they are not
    independent draws; boots are. An interval needs two boots on each side
    (None otherwise: one boot shows no spread between boots). Both sides are
    resampled independently (they come from different boots), from a
    generator seeded afresh on every call.
    """
    base = [v for b in base_boots for v in b]
    other = [v for b in other_boots for v in b]
    if not base or not other:
        raise ValueError("comparison needs values on both sides")
    mb, mo = median(base), median(other)
    ratio, delta = _ratio(mo, mb), _delta(mo, mb)
    if len(base_boots) < 2 or len(other_boots) < 2:
        return ratio, None, delta, None
    if _constant(base) and _constant(other):
        return ratio, (None if ratio is None else (ratio, ratio)), delta, (delta, delta)
    rng = random.Random(seed)
    nb, no = len(base_boots), len(other_boots)

    def pooled(boots, k):
        return [v for b in rng.choices(boots, k=k) for v in b]

    pairs = [(median(pooled(base_boots, nb)), median(pooled(other_boots, no)))
             for _ in range(resamples)]
    rci = None if ratio is None else _interval(pairs, _ratio, level)
    return ratio, rci, delta, _interval(pairs, _delta, level)


def ratio_ci(base, other, resamples=RESAMPLES, seed=SEED, level=LEVEL):
    """Ratio of medians other/base and its bootstrap interval (see compare)."""
    ratio, rci, _, _ = compare(base, other, resamples, seed, level)
    return ratio, rci


def delta_ci(base, other, resamples=RESAMPLES, seed=SEED, level=LEVEL):
    """Difference of medians other - base and its bootstrap interval (see compare).

    Used for per-call costs, where "+5 instructions per call" says more
    than a ratio.
    """
    _, _, delta, dci = compare(base, other, resamples, seed, level)
    return delta, dci


def _constant(values):
    return all(v == values[0] for v in values)


def median_interval(values, level=LEVEL):
    """Distribution-free interval for the median from order statistics.

    [x(k), x(n+1-k)] of the sorted values, with the largest k whose
    coverage 1 - 2 P(Binomial(n, 1/2) < k) is at least `level`: exact for
    any continuous distribution, conservative with ties, no resampling.
    Returns (low, high, coverage), or None when n is too small for any
    order statistic to reach `level` (n < 6 at 95%).
    """
    n = len(values)
    best = None
    below = 1 / 2 ** n               # P(Binomial(n, 1/2) <= k - 1), k = 1
    for k in range(1, n // 2 + 1):
        coverage = 1 - 2 * below
        if coverage < level:
            break
        best = (k, coverage)
        below += math.comb(n, k) / 2 ** n
    if best is None:
        return None
    k, coverage = best
    s = sorted(values)
    return s[k - 1], s[n - k], coverage


def paired_ratios(base, other):
    """other[r] / base[r] for every round r of both ({round: value} each),
    in round order; rounds where base is 0 are left out."""
    return [other[r] / base[r] for r in sorted(set(base) & set(other)) if base[r] != 0]
