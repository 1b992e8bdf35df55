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
