"""The load-latency sentence of a pair of configurations, generated from a run.

The README and the cover letter quote each benchmark run's headline in
prose; this writes that prose from the run's samples, so that a test
(tests/unit/test_claims.py, with tests/claims.tsv) can check that the
quoted words are still those the run gives. Numbers are formatted as in
the report (labels.ratio, labels.interval).
"""
import labels
from points import PAIRED_CLOCKS

# A ratio above this is more than the 5% the series is held to.
LIMIT = 1.05


def point_name(key):
    """'straight 8', '1 subprogram(s)', 'bpf_flow'."""
    if key.case.startswith("real:"):
        return key.case[len("real:"):]
    if key.case == "subprogs":
        return f"{key.x} subprogram{'' if key.x == '1' else 's'}"
    return f"{key.case} {key.x}"


def load_sentence(run, points, config, reference, clock="icount"):
    """One paragraph: each load point's ratio of medians config / reference
    with its bootstrap CI (and under icount the round-by-round median with
    its order-statistic interval), then the largest median and the upper
    bounds above LIMIT. Raises ValueError when the run lacks the pair."""
    keys = points.select(clock=clock, workload="load", metric="load_ns")
    if not keys:
        raise ValueError(f"run {run.run_id} has no {clock} load_ns samples")
    parts, worst, over = [], None, []
    n = None
    for k in keys:
        cmp = points.compare(k, config, reference)
        if cmp is None or cmp.ratio is None:
            raise ValueError(f"run {run.run_id} lacks {config} or {reference} at {k.case} {k.x}")
        text = f"{point_name(k)} {labels.ratio(cmp.ratio)} {labels.interval(cmp.ratio_ci)}"
        if clock in PAIRED_CLOCKS:
            p = points.paired(k, config, reference)
            if p is not None:
                text += f" (by round {labels.ratio(p.ratio)} {labels.interval(p.ratio_ci)})"
                n = p.n
        parts.append(text)
        if worst is None or cmp.ratio > worst[1]:
            worst = (point_name(k), cmp.ratio)
        if cmp.ratio_ci is not None and cmp.ratio_ci[1] > LIMIT:
            over.append(f"{point_name(k)} ({labels.ratio(cmp.ratio_ci[1])})")
    rounds = f", {n} rounds" if n else ""
    out = (f"Run {run.run_id} ({clock}{rounds}), `{config}` over `{reference}`, load latency,"
           f" ratio of medians [bootstrap 95% CI]: " + "; ".join(parts) + ". "
           f"Largest median ratio: {labels.ratio(worst[1])} ({worst[0]}); upper bounds above "
           f"{LIMIT:.2f}: " + (", ".join(over) if over else "none") + ".")
    return out


def sizing_sentence(run):
    """The sizing model's headline: objects that fit at 128 MiB and 1 GiB, the check
    against the held-out size, and whether churn settled. Raises ValueError without
    fill samples."""
    import sizing
    r = sizing.model(run)
    if r is None:
        raise ValueError(f"run {run.run_id} has no fill samples")
    layout = sizing.Layout(**r["layout"])
    preds = []
    for size in sizing.REPORT_MIB:
        objs = sizing.predict(r["fit"], size, layout=layout)
        shown = ", ".join(f"{n} {labels.count(objs[n], whole=True)}"
                          for n in sizing.series_names(r))
        preds.append(f"at {labels.mib(size)} ({sizing.program_packs(size * sizing.MIB, layout=layout)}"
                     f" packs for programs, {sizing.packs(size * sizing.MIB, layout=layout)} in"
                     f" all): {shown}")
    checked = [c for c in r["check"] if c["relative_error"] is not None]
    worst = max(checked, key=lambda c: abs(c["relative_error"])) if checked else None
    check = (f"checked at the largest measured size of each class, the largest error is"
             f" {labels.percent(worst['relative_error'])} ({worst['class']})"
             if worst else "not checked")
    churn = "; ".join(sizing.trend_lines(r)) or "no churn rows"
    return (f"Run {run.run_id} (fill, regions {sizing.mibs(r['sizes_mib'])}), predicted objects"
            f" before the first failed load " + "; ".join(preds) + f"; {check}; {churn}.")


def conc_sentence(run, config, reference):
    """The concurrent-load headline of a pair, for the largest programs: the ratios at one
    loader, the range of the p50 and p99 ratios with more, and the pool misses at the most
    loaders. Raises ValueError without conc samples."""
    import conc
    r = conc.model(run)
    if r is None:
        raise ValueError(f"run {run.run_id} has no conc samples")
    largest = (conc.sizes_of(r) or [None])[-1]
    rows = conc.ratio_rows(r, config, reference, largest)
    if not rows:
        raise ValueError(f"run {run.run_id} lacks conc rows of {config} or {reference}")
    one = [f"{conc.fmt_ratio(q['p50'])} on {conc.cpus_of(case)} CPUs"
           for case, loaders, q in rows if loaders == 1]
    more = [q[p] for _, loaders, q in rows if loaders > 1 for p in ("p50", "p99")
            if q[p] is not None]
    most = max(loaders for _, loaders, _ in rows)
    misses = [f"{x['cpus']} CPUs {labels.count(x['pool_misses'])}"
              for x in r["rows"] if x["config"] == config and x["loaders"] == most
              and x["pool_misses"] is not None]
    what = "loads" if largest is None else f"{largest}-instruction loads"
    out = (f"Run {run.run_id} (icount, conc, first boot of each, no interval), `{config}` over"
           f" `{reference}`, {what}: p50 at 1 loader " + ", ".join(one))
    if more:
        out += (f"; with 2 to {most} loaders the p50 and p99 ratios range from"
                f" {conc.fmt_ratio(min(more))} to {conc.fmt_ratio(max(more))}")
    if misses:
        out += f"; staging pool misses of `{config}` with {most} loaders: " + ", ".join(misses)
    return out + "."


def tune_sentence(run):
    """What analysis/tune answers for the default host from run's sizing model (the
    write-protection costs, which come from other runs, left out)."""
    import sizing
    import tune
    model = sizing.model(run)
    if model is None:
        raise ValueError(f"run {run.run_id} has no fill samples")
    return "; ".join(tune.lines(tune.advise(model)))


def pmu_sentence(run, clock="icount"):
    """How the PMU's instruction count around each load compares with load_ns, round by
    round (the first boot of each configuration, as the tables): in how many rounds
    load_ns is the larger, by how much at most and where, and the median of count /
    load_ns. Raises ValueError without PMU counts."""
    import stats
    by_round = {}
    for s in run.measured:
        if (s.clock == clock and s.workload == "load" and str(s.boot) == "0"
                and s.metric in ("load_ns", "load_instructions")):
            by_round.setdefault((s.config, s.case, s.x, s.round), {})[s.metric] = float(s.value)
    pairs = [(k, v["load_ns"], v["load_instructions"]) for k, v in by_round.items()
             if "load_ns" in v and "load_instructions" in v]
    if not pairs:
        raise ValueError(f"run {run.run_id} has no {clock} load_instructions beside load_ns")
    over = [(ns - count, k) for k, ns, count in pairs if ns > count]
    ratios = [count / ns for _, ns, count in pairs if ns]
    out = (f"in run {run.run_id} `load_ns` exceeds the count in {labels.count(len(over))}"
           f" of {labels.count(len(pairs))} rounds")
    if over:
        excess, (config, case, x, rnd) = max(over)
        name = point_name(type("Key", (), {"case": case, "x": x})())
        out += f", by up to {labels.count(excess)} ({name}, `{config}`, round {rnd})"
    return out + f", and the median of count / `load_ns` is {labels.ratio(stats.median(ratios))}"
