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


def _bootstrap(base, other, statistic, resamples, seed, level):
    """Percentile bootstrap interval of statistic(median(other), median(base)).

    Both samples are resampled independently (they come from different
    boots). Resamples whose statistic is undefined (None) are dropped; if
    more than half are, there is no interval.
    """
    rng = random.Random(seed)
    nb, no = len(base), len(other)
    values = []
    for _ in range(resamples):
        mb = median(rng.choices(base, k=nb))
        mo = median(rng.choices(other, k=no))
        v = statistic(mo, mb)
        if v is not None:
            values.append(v)
    if len(values) * 2 < resamples:
        return None
    tail = (1 - level) / 2 * 100
    return percentile(values, tail), percentile(values, 100 - tail)


def _ratio(a, b):
    return a / b if b != 0 else None


def _delta(a, b):
    return a - b


def ratio_ci(base, other, resamples=RESAMPLES, seed=SEED, level=LEVEL):
    """Ratio of medians other/base and its bootstrap interval.

    Returns (ratio, (lo, hi)); ratio is None when the base median is 0, the
    interval is None when either sample has fewer than two values (a single
    measurement has no spread to resample) or the ratio is undefined.
    Constant samples give an exact ratio and a zero-width interval.
    """
    _check(base, other)
    ratio = _ratio(median(other), median(base))
    if ratio is None or len(base) < 2 or len(other) < 2:
        return ratio, None
    if _constant(base) and _constant(other):
        return ratio, (ratio, ratio)
    return ratio, _bootstrap(base, other, _ratio, resamples, seed, level)


def delta_ci(base, other, resamples=RESAMPLES, seed=SEED, level=LEVEL):
    """Difference of medians other - base and its bootstrap interval.

    Same rules as ratio_ci; used for per-call costs, where "+5 instructions
    per call" says more than a ratio.
    """
    _check(base, other)
    delta = median(other) - median(base)
    if len(base) < 2 or len(other) < 2:
        return delta, None
    if _constant(base) and _constant(other):
        return delta, (delta, delta)
    return delta, _bootstrap(base, other, _delta, resamples, seed, level)


def _check(base, other):
    if not base or not other:
        raise ValueError("comparison needs values on both sides")


def _constant(values):
    return all(v == values[0] for v in values)
