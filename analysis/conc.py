"""Load latency with several loaders at once: the conc workload's distribution.

benchmarks/guest conc starts --counts loaders together, bound to C CPUs (case
"cpus<C>", x = loaders), each loading programs of mixed sizes; a row per load
(load_ns, and insns: that load's program size) and per batch (failed_loads,
batch_ns, pool_misses). Under icount a guest ns is a guest instruction, and a
load's latency includes the time it waited for a lock or a CPU.

Per configuration, CPU count and loader count, over all loads and over the
loads of each program size (insns): the loads, p50, p95, p99 and the largest
load_ns (nearest-rank percentiles: the smallest value with at least q% of the
loads at or below it), the failed loads and the staging pool's misses over
the batch. The mix of sizes makes the distribution over all loads
multimodal, so its median jumps between modes from one configuration to the
next; the per-size percentiles are the ones to compare. Each configuration
boots once for conc, and the loads of one batch share that boot, so no
interval is given: the ratios to the baseline (and to each pair's reference)
describe this boot, and say so. Under icount with single-threaded TCG the
vCPUs run in turn on one virtual clock, so a load's latency counts what the
other loaders' vCPUs executed meanwhile, contention or not: compare
configurations at the same CPUs and loaders, not loader counts with each
other.
model() computes it all; markdown() is tables/concurrency.md, summary_lines()
the report's part.
"""
import math

import labels

CONC = "conc"
PERCENTILES = (50, 95, 99)


def percentile(values, q):
    """Nearest rank: the smallest value with at least q% of values at or below it."""
    v = sorted(values)
    return v[max(math.ceil(q / 100 * len(v)) - 1, 0)]


def cpus_of(case):
    """'cpus4' -> 4 (the CPUs the loaders were bound to); other cases sort last."""
    return int(case[4:]) if case.startswith("cpus") and case[4:].isdigit() else 10 ** 6


def model(run):
    """{"rows": [...], "configs": [...], "baseline", "pairs"}, or None without conc
    samples. A row: config, case, cpus, loaders, loads, p50/p95/p99/max (load_ns),
    failed_loads, pool_misses (None where not recorded), batch_ns."""
    samples = [s for s in run.measured if s.workload == CONC]
    if not samples:
        return None
    # Each configuration's first boot: under icount a second one repeats it (the run's
    # determinism check compares the two), and pooling them would count each load twice.
    first_boot = {}
    for s in samples:
        first_boot[s.config] = min(first_boot.get(s.config, s.boot), s.boot)
    samples = [s for s in samples if s.boot == first_boot[s.config]]
    groups, sizes = {}, {}
    for s in samples:
        key = (s.config, s.case, int(float(s.x)))
        g = groups.setdefault(key, {})
        g.setdefault(s.metric, []).append(s.value)
        if s.metric in ("load_ns", "insns"):
            sizes.setdefault(key, {}).setdefault(s.round, {})[s.metric] = s.value
    configs = [c for c in run.configs if any(k[0] == c for k in groups)]
    rows, size_rows = [], []
    for (config, case, loaders), m in groups.items():
        row = {"config": config, "case": case, "cpus": cpus_of(case), "loaders": loaders,
               "failed_loads": first(m, "failed_loads"), "pool_misses": first(m, "pool_misses"),
               "batch_ns": first(m, "batch_ns"), **distribution(m.get("load_ns", []))}
        rows.append(row)
        by_size = {}
        for load in sizes.get((config, case, loaders), {}).values():
            if "insns" in load and "load_ns" in load:
                by_size.setdefault(int(load["insns"]), []).append(load["load_ns"])
        for insns, lat in sorted(by_size.items()):
            size_rows.append({"config": config, "case": case, "cpus": cpus_of(case),
                              "loaders": loaders, "insns": insns, **distribution(lat)})
    order = (lambda r: (configs.index(r["config"]), r["cpus"], r["loaders"],
                        r.get("insns", 0)))
    rows.sort(key=order)
    size_rows.sort(key=order)
    return {"rows": rows, "size_rows": size_rows, "configs": configs,
            "baseline": run.baseline,
            "pairs": [p for p in run.pairs if p[0] in configs and p[1] in configs]}


def distribution(lat):
    """{"loads", "p50", "p95", "p99", "max"} of a list of latencies (None when empty)."""
    out = {"loads": len(lat), "max": max(lat) if lat else None}
    for q in PERCENTILES:
        out[f"p{q}"] = percentile(lat, q) if lat else None
    return out


def first(metrics, name):
    v = metrics.get(name)
    return v[0] if v else None


def ratio_rows(result, config, reference, insns=None):
    """[(case, loaders, {pq: config's / reference's})] where both were measured: over
    all loads, or with insns over the loads of that program size."""
    table = result["rows"] if insns is None else [
        r for r in result["size_rows"] if r["insns"] == insns]
    ref = {(r["case"], r["loaders"]): r for r in table if r["config"] == reference}
    out = []
    for r in table:
        if r["config"] != config or (r["case"], r["loaders"]) not in ref:
            continue
        b = ref[(r["case"], r["loaders"])]
        out.append((r["case"], r["loaders"],
                    {f"p{q}": r[f"p{q}"] / b[f"p{q}"] if b[f"p{q}"] else None
                     for q in PERCENTILES}))
    return out


def sizes_of(result):
    return sorted({r["insns"] for r in result["size_rows"]})


def comparisons(result):
    """[(config, reference)]: every configuration against the baseline, then the pairs."""
    base = result["baseline"]
    out = [(c, base) for c in result["configs"] if c != base and base in result["configs"]]
    return out + [p for p in result["pairs"] if tuple(p) not in out]


def fmt_ratio(v):
    return "-" if v is None else f"{v:.3f}"


def markdown(result, run_id):
    out = [f"# Concurrent loads: {run_id}", "",
           "Loaders start together, bound to the first C CPUs of a 4-vCPU guest, each loading"
           " a fixed pseudo-random sequence of straight-line programs (50% 8, 25% 512, 25%"
           " 4,096 instructions). load_ns in guest ns (under icount: guest instructions,"
           " waits included). Percentiles by nearest rank, of each configuration's first icount"
           " boot (a second one repeats it): no interval; the ratios describe this boot. Under icount the vCPUs run in turn on"
           " one virtual clock, so a load's latency counts what the other loaders' vCPUs"
           " executed meanwhile, contention or not: compare configurations at the same CPUs"
           " and loaders. Over"
           " all loads the distribution is multimodal (three sizes), and its median jumps"
           " between modes: the per-size tables are the ones to compare.", ""]
    out += ["| configuration | CPUs | loaders | loads | p50 | p95 | p99 | max | failed |"
            " pool misses |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in result["rows"]:
        out.append(f"| {r['config']} | {r['cpus']} | {r['loaders']} | {r['loads']} | "
                   + " | ".join(labels.count(r[k], whole=True)
                                for k in ("p50", "p95", "p99", "max"))
                   + f" | {labels.count(r['failed_loads'])} |"
                   f" {'-' if r['pool_misses'] is None else labels.count(r['pool_misses'])} |")
    out.append("")
    if result["size_rows"]:
        out += ["## By program size", "",
                "| configuration | CPUs | loaders | instructions | loads | p50 | p95 | p99 |"
                " max |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for r in result["size_rows"]:
            out.append(f"| {r['config']} | {r['cpus']} | {r['loaders']} | {r['insns']} |"
                       f" {r['loads']} | " + " | ".join(labels.count(r[k], whole=True)
                                                     for k in ("p50", "p95", "p99", "max"))
                       + " |")
        out.append("")
    for config, ref in comparisons(result):
        out += [f"## {config} / {ref} (one boot each, no interval)", "",
                "| CPUs | loaders | program size | p50 | p95 | p99 |",
                "|---:|---:|---|---:|---:|---:|"]
        for insns in [None] + sizes_of(result):
            for case, loaders, q in ratio_rows(result, config, ref, insns):
                out.append(f"| {cpus_of(case)} | {loaders} |"
                           f" {'all' if insns is None else insns} | "
                           + " | ".join(fmt_ratio(q[f"p{p}"]) for p in PERCENTILES) + " |")
        out.append("")
    return "\n".join(out)


def summary_lines(result):
    """The report's lines: per comparison, the p50 and p99 ratios at the most loaders
    on each CPU count, and the pool misses there."""
    out = ["concurrent loads (conc; each configuration's first icount boot, no interval):"]
    most = {}
    for r in result["rows"]:
        if r["loaders"] >= most.get((r["config"], r["cpus"]), {"loaders": 0})["loaders"]:
            most[(r["config"], r["cpus"])] = r
    for (config, cpus), r in most.items():
        misses = "" if r["pool_misses"] is None else f", pool misses {labels.count(r['pool_misses'])}"
        out.append(f"  {config}, {r['loaders']} loaders on {cpus} CPUs: p50"
                   f" {labels.count(r['p50'], whole=True)}, p99 {labels.count(r['p99'], whole=True)}"
                   f" ns, {labels.count(r['failed_loads'])} failed{misses}")
    largest = (sizes_of(result) or [None])[-1]
    for config, ref in comparisons(result):
        rows = ratio_rows(result, config, ref, largest)
        if not rows:
            continue
        what = "all loads" if largest is None else f"loads of {largest} instructions"
        out.append(f"  {config} / {ref}, {what}: " + "; ".join(
            f"{loaders} on {cpus_of(case)} CPUs p50 {fmt_ratio(q['p50'])}, p99 {fmt_ratio(q['p99'])}"
            for case, loaders, q in rows))
    return out
