"""Which bpf_jit_region= for a host: the measured sizing model applied to a fleet.

advise() takes the sizing model of a run with fill samples (sizing.model) and
what a host loads (programs of one measured class, trampolines, struct_ops
maps) and answers: the packs they take, the smallest region size that holds
them with the headroom asked for (a power of two from 64 MiB to 4 GiB, the
sizes the model predicts), the reserve the kernel keeps in it, what its page
tables cost with 4 KiB, 16 KiB and 64 KiB pages, and the model's stated
error (its check against a measured size it was not fitted on). mode_costs()
adds what write protection costs per load, from a run with load and tlb
samples. Nothing outside what was measured is extrapolated silently: a class
the run did not measure is refused, a host larger than 4 GiB of region holds
is refused, and every computed (not measured) figure says so.
"""
import math

import labels
import sizing

MIB = sizing.MIB
SIZES_MIB = sizing.EXTRAPOLATE_MIB
# The operators' defaults (issue: the published fleet figures): half of the
# programs under 500 B, three quarters under 2 KiB: the "mix" class; a host
# with 75,000 programs.
DEFAULT_PROGRAMS = 75000
DEFAULT_CLASS = "mix"
DEFAULT_HEADROOM = 1.5
PROGRAM_CLASSES = ("p50", "p75", "largest", "mix")


class TuneError(Exception):
    """Input the model cannot answer; the message says why and what is valid."""


def per_pack(model, cls, churned=True):
    """Objects of cls per pack, after churn where the class was churned."""
    f = model["fit"].get(cls)
    if f is None:
        measured = ", ".join(c for c in model["fit"] if c in PROGRAM_CLASSES) or "none"
        raise TuneError(f"class '{cls}' was not measured in run {model['run_id']}"
                        f" (program classes it measured: {measured})")
    n = f["objects_per_pack"]["mean"]
    if churned and "churn_efficiency" in f:
        n *= f["churn_efficiency"]["mean"]
    return n


def stated_error(model):
    """The largest relative error of the model's check (predictions at a measured size it
    was not fitted on), or None when it was not checked."""
    errs = [abs(c["relative_error"]) for c in model["check"] if c["relative_error"] is not None]
    return max(errs) if errs else None


def advise(model, programs=DEFAULT_PROGRAMS, cls=DEFAULT_CLASS, trampolines=0, struct_ops=0,
           headroom=DEFAULT_HEADROOM):
    """The answer as a dict; raises TuneError on input the model cannot answer."""
    if programs < 0 or trampolines < 0 or struct_ops < 0:
        raise TuneError("counts must be 0 or more")
    if not headroom >= 1:
        raise TuneError(f"headroom {headroom}: the factor of room to keep, 1 or more (1.5:"
                        " the region one and a half times what the host loads)")
    if cls not in PROGRAM_CLASSES:
        raise TuneError(f"class '{cls}' is not a program class (valid: "
                        f"{', '.join(PROGRAM_CLASSES)})")
    layout = sizing.Layout(**model["layout"])
    need_prog = math.ceil(programs * headroom / per_pack(model, cls)) if programs else 0
    need_other = 0
    for count, other in ((trampolines, "trampoline"), (struct_ops, "struct_ops")):
        if count:
            need_other += math.ceil(count * headroom / per_pack(model, other, churned=False))
    choice = None
    for size in SIZES_MIB:
        prog_packs = sizing.program_packs(size * MIB, layout=layout)
        all_packs = sizing.packs(size * MIB, layout=layout)
        # Programs stay below the reserve; trampolines and struct_ops images may use it.
        if prog_packs >= need_prog and all_packs >= need_prog + need_other:
            choice = size
            break
    if choice is None:
        raise TuneError(f"{programs} programs of class {cls} ({need_prog} packs with headroom"
                        f" {headroom}) and {need_other} packs of trampolines and struct_ops"
                        f" do not fit in the largest region, {labels.mib(SIZES_MIB[-1])}"
                        " (the most bpf_jit_region= takes)")
    reserve = sizing.reserve_packs(choice * MIB, layout) * sizing.PACK_BYTES
    return {
        "run_id": model["run_id"], "class": cls, "programs": programs,
        "trampolines": trampolines, "struct_ops": struct_ops, "headroom": headroom,
        "per_pack": per_pack(model, cls), "packs_needed": need_prog + need_other,
        "region_mib": choice,
        "program_packs": sizing.program_packs(choice * MIB, layout=layout),
        "all_packs": sizing.packs(choice * MIB, layout=layout),
        "reserve_bytes": reserve,
        "page_tables": {sizing.page_name(p): sizing.page_tables(choice * MIB, p)["bytes"]
                        for p in sizing.PAGE_SIZES},
        "stated_error": stated_error(model),
        "checked_mib": model["checked_sizes_mib"],
        "churn_settled": [t["settled"] for t in model["churn_trends"] if t["class"] == cls],
    }


def mode_costs(run, points, tlb_run=None, tlb_points=None, config="series",
               reference="series-wp-off"):
    """What write protection costs: the load latency ratio config / reference at each
    program size (icount, with its CI) from run, and the TLBI per load into an existing
    pack (icount counts) from tlb_run (default: run). Raises TuneError when a run lacks
    either configuration."""
    tlb_run, tlb_points = (tlb_run, tlb_points) if tlb_run else (run, points)
    for r in (run, tlb_run):
        for c in (config, reference):
            if c not in r.configs:
                raise TuneError(f"run {r.run_id} has no configuration '{c}'"
                                f" (it has: {', '.join(r.configs)})")
    load = []
    for k in points.select(clock="icount", workload="load", case="straight", metric="load_ns"):
        cmp = points.compare(k, config, reference)
        if cmp is not None and cmp.ratio is not None:
            load.append((k.x, cmp.ratio, cmp.ratio_ci))
    tlbi = []
    for k in tlb_points.select(clock="icount", workload="tlb", case="load_existing_pack",
                               metric="tlbi"):
        a, b = tlb_points.summary(k, config), tlb_points.summary(k, reference)
        if a and b:
            tlbi.append((k.x, a.median, b.median))
    if not load:
        raise TuneError(f"run {run.run_id} has no icount load samples of {config} and"
                        f" {reference}")
    return {"run_id": run.run_id, "tlb_run_id": tlb_run.run_id, "config": config,
            "reference": reference, "load": load, "tlbi": tlbi}


def lines(answer, costs=None):
    """The answer in words."""
    a = answer
    err = a["stated_error"]
    err_text = ("not checked" if err is None else
                f"within {err * 100:.2f}% where checked (at {sizing.mibs(a['checked_mib'])},"
                " measured, not fitted)")
    settled = a["churn_settled"]
    churn = ("" if not settled else
             "; churn settled" if all(settled) else
             "; churn NOT settled at every measured size: the after-churn figure may be high"
             if any(s is False for s in settled) else
             "; whether churn settled is not known (too few rounds)")
    out = [f"host: {a['programs']:,} programs of class {a['class']}"
           f" ({sizing.CLASS_TEXT.get(a['class'], a['class'])}), {a['trampolines']:,}"
           f" trampolines, {a['struct_ops']:,} struct_ops maps; headroom x{a['headroom']}",
           f"model: run {a['run_id']}: {labels.count(a['per_pack'])} programs a pack"
           f"{' after churn' if a['class'] == 'mix' else ''}; the model is {err_text}{churn}",
           f"bpf_jit_region={a['region_mib']}M: {a['all_packs']} packs, {a['program_packs']}"
           f" for eBPF programs ({labels.size_bytes(a['reserve_bytes'])} kept for classic BPF"
           f" and trampolines); {a['packs_needed']} needed with headroom",
           "page tables of the whole region (computed, not measured): "
           + ", ".join(f"{labels.size_bytes(v)} with {k} pages" for k, v in a["page_tables"].items())]
    if costs:
        c = costs
        out.append(f"write protection (run {c['run_id']}, icount, {c['config']} over"
                   f" {c['reference']}), load latency: " + "; ".join(
                       f"{x} instructions {labels.ratio(r)} {labels.interval(ci)}"
                       for x, r, ci in c["load"]))
        if c["tlbi"]:
            out.append(f"  TLBI per load into an existing pack (run {c['tlb_run_id']}): " + "; ".join(
                f"{x} instructions {labels.count(a_)} against {labels.count(b)}"
                for x, a_, b in c["tlbi"])
                + " (counted; their cost depends on the CPU and its core count)")
        out.append("  bpf_jit_wp=warn runs the same checks as enforce and only reports,"
                   " so it costs what enforce does (not measured apart); off costs nothing")
    return out
