"""Samples grouped into measured points, with their summaries and comparisons.

A point is one (clock, workload, case, x, metric): the unit of every table
row, every plotted marker and every headline ratio. Plots, tables and the
report all ask this module, so a number printed in the report is the very
number in the table and on the plot; the bootstrap is run once per point
and configuration and memoised.
"""
from collections import namedtuple

import stats
from runs import CLOCK_ORDER

Key = namedtuple("Key", "clock workload case x metric")
Summary = namedtuple("Summary", "median p5 p95 n")
Comparison = namedtuple("Comparison", "ratio ratio_ci delta delta_ci")
Paired = namedtuple("Paired", "ratio ratio_ci coverage n")

# Clocks whose rounds line up across configurations: under icount a boot is
# a deterministic function of the image and its arguments, so round r of one
# configuration meets the same interrupts and deferred work as round r of
# another, and their ratio cancels them. Wall-clock rounds share nothing.
PAIRED_CLOCKS = ("icount",)


def xsort(x):
    """Sort order of an x value: empty first, then numbers, then text."""
    if x == "":
        return (0, 0.0, "")
    try:
        return (1, float(x), "")
    except ValueError:
        return (2, 0.0, x)


def xnum(x):
    """x as a number for an axis, or None when it is empty or not numeric."""
    try:
        return float(x)
    except ValueError:
        return None


def used(run):
    """The samples the statistics use: warm-ups dropped, and icount replays.

    Only the compared configurations' samples (run.ordinary): the fill
    configurations' and the fill rows are sizing.py's.

    The boots of a configuration under one clock are pooled, except the
    icount determinism repeats when the run found them identical to the
    first boot: a replay of the same figures adds no information, and
    counting it twice would narrow the intervals for nothing.
    """
    det = run.metadata.get("determinism")
    replays = isinstance(det, dict) and det.get("checked") and det.get("identical")
    measured = run.ordinary
    if not replays:
        return measured
    first = {}
    for s in measured:
        if s.clock == "icount":
            first[s.config] = min(first.get(s.config, s.boot), s.boot)
    return [s for s in measured if s.clock != "icount" or s.boot == first[s.config]]


class Points:
    """Measured values of a run (see used()), per point and configuration."""

    def __init__(self, run):
        self.run = run
        self.baseline = run.baseline
        self.configs = run.configs
        self.values = {}     # Key -> {config: [values]}
        self.rounds = {}     # Key -> {config: {(boot, round): value}}
        self.units = {}      # Key -> unit
        first = {}           # first-appearance rank of workloads, cases, metrics
        self.samples = used(run)
        for s in self.samples:
            key = Key(s.clock, s.workload, s.case, s.x, s.metric)
            self.values.setdefault(key, {}).setdefault(s.config, []).append(s.value)
            self.rounds.setdefault(key, {}).setdefault(s.config, {})[(s.boot, s.round)] = s.value
            self.units.setdefault(key, s.unit)
            for field in ("workload", "case", "metric"):
                first.setdefault((field, getattr(s, field)), len(first))
        clocks = run.clocks

        def order(key):
            clock = clocks.index(key.clock) if key.clock in clocks else len(CLOCK_ORDER)
            return (clock, first[("workload", key.workload)], first[("case", key.case)],
                    xsort(key.x), first[("metric", key.metric)])
        self.keys = sorted(self.values, key=order)
        self._summaries = {}
        self._comparisons = {}
        self._paired = {}

    def select(self, clock=None, workload=None, case=None, metric=None):
        """Keys matching every given field, in table order."""
        want = {"clock": clock, "workload": workload, "case": case, "metric": metric}
        return [k for k in self.keys
                if all(v is None or getattr(k, f) == v for f, v in want.items())]

    def has(self, key, config):
        return bool(self.values.get(key, {}).get(config))

    def summary(self, key, config):
        """Median, p5, p95 and count, or None when config has no values here."""
        if not self.has(key, config):
            return None
        memo = (key, config)
        if memo not in self._summaries:
            v = self.values[key][config]
            self._summaries[memo] = Summary(stats.median(v), stats.percentile(v, 5),
                                            stats.percentile(v, 95), len(v))
        return self._summaries[memo]

    def compare(self, key, config, reference=None):
        """config against reference (default: the baseline) at key: ratio of
        medians config/reference and difference config - reference, with
        their CIs; None when config is the reference or either lacks values.
        Under icount the bootstrap resamples rounds (a boot is deterministic,
        and its replay is left out, see used()); under other clocks it
        resamples boots (stats.compare_boots), whose rounds are not
        independent."""
        if reference is None:
            reference = self.baseline
        if config == reference or not self.has(key, config) or not self.has(key, reference):
            return None
        memo = (key, config, reference)
        if memo not in self._comparisons:
            if key.clock in PAIRED_CLOCKS:
                base, other = self.values[key][reference], self.values[key][config]
                self._comparisons[memo] = Comparison(*stats.compare(base, other))
            else:
                self._comparisons[memo] = Comparison(*stats.compare_boots(
                    self.boots(key, reference), self.boots(key, config)))
        return self._comparisons[memo]

    def boots(self, key, config):
        """config's values at key, one list per boot, in boot order."""
        by_boot = {}
        for (boot, _), v in sorted(self.rounds[key][config].items()):
            by_boot.setdefault(boot, []).append(v)
        return [by_boot[b] for b in sorted(by_boot)]

    def unit(self, key):
        return self.units[key]

    def paired(self, key, config, reference=None):
        """config against reference round by round (icount only, see
        PAIRED_CLOCKS): the median of the per-round ratios and its
        order-statistic interval (stats.median_interval), or None when the
        clock does not pair or either side lacks values. Rounds in one boot
        are not independent samples: the interval describes the spread over
        rounds, which is what remains once the shared interference cancels."""
        if reference is None:
            reference = self.baseline
        if (key.clock not in PAIRED_CLOCKS or config == reference
                or not self.has(key, config) or not self.has(key, reference)):
            return None
        memo = (key, config, reference)
        if memo not in self._paired:
            r = stats.paired_ratios(self.rounds[key][reference], self.rounds[key][config])
            if not r:
                self._paired[memo] = None
            else:
                ci = stats.median_interval(r)
                self._paired[memo] = Paired(stats.median(r), ci and ci[:2],
                                            ci and ci[2], len(r))
        return self._paired[memo]
