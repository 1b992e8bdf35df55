"""What a run lacks: failed boots, and the points some configuration has no values for.

A configuration whose boot failed still leaves every other plot and table
to be made, so the gaps are found once here and named wherever results are
shown (the report, tables/summary.*, tables/MISSING.md): a plot with a line
short must never pass for a complete one.
"""
from collections import namedtuple

Gap = namedtuple("Gap", "config clock workload points total reason")

MAX_LISTED = 8


def failed_boots(run):
    """Lines naming each failed boot and its reason."""
    return [f"boot failed: {b.get('config', '?')} {b.get('clock', '?')}#{b.get('boot', '?')}:"
            f" {b.get('reason') or 'no reason recorded'}" for b in run.failed_boots]


def gaps(run, points):
    """Per configuration, clock and workload: the points others measured and it did not.

    The expected points are those any configuration has; a configuration
    missing all of a clock/workload gets one Gap with every point. The
    reason says when a boot of that configuration under that clock failed.
    """
    expected = {}
    for key in points.keys:
        expected.setdefault((key.clock, key.workload), []).append(key)
    failed = {(b.get("config"), b.get("clock")) for b in run.failed_boots}
    out = []
    for (clock, workload), keys in expected.items():
        for config in run.configs:
            lacking = [k for k in keys if not points.has(k, config)]
            if lacking:
                why = f"a {clock} boot of {config} failed" if (config, clock) in failed else ""
                out.append(Gap(config, clock, workload, lacking, len(keys), why))
    return out


def describe(gap):
    """One line for a Gap: all of a workload, or the first few points."""
    head = f"{gap.config}: {gap.clock}/{gap.workload}:"
    if len(gap.points) == gap.total:
        text = f"{head} no samples (all {gap.total} points)"
    else:
        names = [point_name(k) for k in gap.points[:MAX_LISTED]]
        more = len(gap.points) - MAX_LISTED
        text = (f"{head} {len(gap.points)} of {gap.total} points missing: {', '.join(names)}"
                + (f" and {more} more" if more > 0 else ""))
    return text + (f" ({gap.reason})" if gap.reason else "")


def point_name(key):
    x = f" x={key.x}" if key.x != "" else ""
    return f"{key.case}{x} {key.metric}"


def lines(run, points, boots=True):
    """Every missing thing, one line each; empty when nothing is missing.

    boots=False leaves out the failed boots, for a caller that lists them
    already.
    """
    out = failed_boots(run) if boots else []
    measured = {s.config for s in run.measured}
    empty = [c for c in run.configs if c not in measured]
    out += [f"{c}: no samples at all" for c in empty]
    out += [describe(g) for g in gaps(run, points) if g.config not in empty]
    out += fill_gaps(run)
    return out


def fill_gaps(run):
    """What the fill configurations lack: all fill samples, or classes others have.

    They run the fill workload alone, so their lack of every other
    workload is by design and never listed; run.configs leaves them out.
    """
    classes, have = [], {}
    for s in run.fill:
        if s.case not in classes:
            classes.append(s.case)
        have.setdefault(s.config, set()).add(s.case)
    out = []
    for config in run.fill_configs:
        if config not in have:
            clocks = [b.get("clock", "?") for b in run.failed_boots if b.get("config") == config]
            why = f" (a {clocks[0]} boot of {config} failed)" if clocks else ""
            out.append(f"{config}: no fill samples{why}")
            continue
        lacking = [c for c in classes if c not in have[config]]
        if lacking:
            out.append(f"{config}: fill: {len(lacking)} of {len(classes)} classes missing:"
                       f" {', '.join(lacking)}")
    return out
