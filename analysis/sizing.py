"""How big must the BPF JIT region be: a model fitted to the fill workload's counts.

The fill configurations boot the series kernel with small BPF JIT regions
(metadata "fill_configurations"), and benchmarks/guest fill loads objects
of one class at a time until a load fails (workload "fill", x = region
size in MiB, case = class). This module turns those counts into an answer
for regions too large to fill under emulation:

  packs(S)      the 2 MiB bpf_prog_packs a region of S bytes holds: each
                takes 2 MiB plus a guard page of VA, so floor((S - F) / (2
                MiB + PAGE_SIZE)), F the VA the region holds before any
                program (the staging pool and its guard page, as the fill
                workload records it at boot: case "region"); eBPF programs
                do not use the reserve the kernel keeps at the region's top
                for classic BPF and trampolines (reserve_packs(S)), so their
                classes get packs(S) - reserve_packs(S); from the kernel's
                geometry, not fitted. A run without "region" rows (kernels
                before the pool moved into the region and before the
                reserve) has F = 0 and no reserve
  n_c           objects of class c per pack: objects / allocations at the
                failure, the mean over c's fitted sizes
  objects_c(S)  n_c x packs(S)
  e             for a class with churn rows (mix): (kept + refilled) /
                first-fill objects, the mean of the last CHURN_WINDOW churn
                rounds, then the mean over the class's fitted sizes; after
                churn, e x n_c x packs(S). churn_trends() says whether e
                has settled (the last window's mean within CHURN_SETTLED
                of the window's before it)

The held-out size is chosen per class (class_sizes()): each class is fitted
on every size where it has a usable point but its largest, and checked
against that largest one (with a single usable size it is fitted on it and
not checked); then extrapolated to EXTRAPOLATE_MIB. Page-table memory, and
what 16 KiB and 64 KiB pages would change, are computed from the page
geometry alone. Everything else comes from samples.csv and metadata.json.
model() computes it all; write_tables() writes tables/sizing.md and
tables/sizing.json, plots.sizing() draws plots/sizing.png and .pdf, and
summary_lines() is the report's part.
"""
import errno
import json
import math
import os
from collections import namedtuple

import labels
import stats

MIB = 1024 * 1024

# The kernel's geometry (Linux 6.12 arm64), the only numbers here that are
# not read from the run.
# kernel/bpf/core.c: BPF JIT images (programs, trampolines, struct_ops
# images) are carved out of bpf_prog_packs of BPF_PROG_PACK_SIZE = SZ_2M *
# num_possible_nodes() bytes (the measured guests have one node), in
# BPF_PROG_CHUNK_SIZE (64-byte) chunks; an image larger than a pack gets a
# page-rounded vmalloc area of its own.
PACK_BYTES = 2 * MIB
CHUNK_BYTES = 64
# mm/vmalloc.c, __get_vm_area_node(): every vmalloc area without
# VM_NO_GUARD reserves one guard page of VA after it, so a pack takes
# PACK_BYTES + PAGE_SIZE of the region.
GUARD_PAGES = 1
# The measured kernels' PAGE_SIZE (arm64, 4 KiB pages), and arm64's others.
MEASURED_PAGE_BYTES = 4096
PAGE_SIZES = (4096, 16384, 65536)
# A page-table entry is 8 bytes and a table is one page: a last-level (PTE)
# table maps PAGE_SIZE / 8 pages (4 KiB pages: 2 MiB; 16 KiB: 32 MiB; 64
# KiB: 512 MiB), a PMD table PAGE_SIZE / 8 of those (4 KiB pages: 1 GiB).
DESCRIPTOR_BYTES = 8
# kernel/bpf/bpf_struct_ops.c, bpf_struct_ops_image_alloc(): a struct_ops
# map's image is one whole PAGE_SIZE (from a pack).
PAGE_IMAGE_CLASSES = ("struct_ops",)
# arch/arm64/mm/bpf_jit_region.c, default_reserve() and bpf_jit_region_place():
# the reserve at the region's top is S / 32 rounded down to 2 MiB (none below
# 64 MiB), kept in whole packs, each with its guard page, and at least one
# pack stays below it. Classes whose objects may be allocated in it:
RESERVE_DIVISOR = 32
RESERVE_STEP = 2 * MIB
RESERVE_CLASSES = ("trampoline", "struct_ops")
# The fill workload's rows that describe the region, not a class.
REGION_CASE = "region"
# include/linux/errno.h: kernel-internal errnos that reach user space.
KERNEL_ERRNOS = {524: "ENOTSUPP"}

# What the tables show, not data.
CLASSES = ("p50", "p75", "largest", "trampoline", "struct_ops", "mix")
CLASS_TEXT = {
    "p50": "straight-line programs with a JIT image of at most 500 bytes"
           " (half of real hosts' programs are smaller)",
    "p75": "at most 2 KiB (three quarters are smaller)",
    "largest": "as large as the largest selftests program the suite loads (pyperf180)",
    "trampoline": "a small target program, an fentry program on it and its trampoline",
    "struct_ops": "a tcp_congestion_ops struct_ops map of three members (image: one page)",
    "mix": "50% p50, 25% p75, 25% 16 KiB programs in a fixed pseudo-random order;"
           " then churn: unload a pseudo-random half, fill again",
}
# The series' default region size (CONFIG_ARM64_BPF_JIT_REGION_SIZE), marked on the plot.
DEFAULT_MIB = 128
EXTRAPOLATE_MIB = (64, 128, 256, 512, 1024, 2048, 4096)
REPORT_MIB = (128, 1024)
TOLERANCE = 0.05
CHURN = " after churn"
# Churn: the efficiency used is the mean of the last CHURN_WINDOW rounds (a
# refill's mix of sizes varies from round to round); it has settled when that
# mean is within CHURN_SETTLED (absolute) of the mean of the window before it.
CHURN_WINDOW = 5
CHURN_SETTLED = 0.02

# What the region holds before any class (case "region" of the fill rows):
# boot_bytes and boot_allocations at boot, and whether the kernel keeps the
# default reserve (it records reserve_bytes). NO_LAYOUT: an older run.
Layout = namedtuple("Layout", "boot_bytes boot_allocations reserve_rule")
NO_LAYOUT = Layout(0, 0, False)

class SizingError(Exception):
    """Fill rows the model cannot use; the message says which and what is valid."""


# Geometry.

def pack_va_bytes(page_bytes=MEASURED_PAGE_BYTES, nodes=1):
    """Region VA one pack takes: the pack and its guard page(s)."""
    return PACK_BYTES * nodes + GUARD_PAGES * page_bytes


def fixed_va_bytes(layout, page_bytes=MEASURED_PAGE_BYTES):
    """Region VA taken before any program: what was in use at boot, with a guard page
    behind each of its allocations."""
    return layout.boot_bytes + layout.boot_allocations * page_bytes


def reserve_packs(size_bytes, layout=NO_LAYOUT, page_bytes=MEASURED_PAGE_BYTES, nodes=1):
    """The packs the kernel keeps at the top of a region of size_bytes by default
    (bpf_jit_region_place()): ceil(reserve / pack), at least one pack left below."""
    if not layout.reserve_rule:
        return 0
    pack = PACK_BYTES * nodes
    reserve = size_bytes // RESERVE_DIVISOR // RESERVE_STEP * RESERVE_STEP
    n = -(-reserve // pack)
    if n and (n + 1) * pack_va_bytes(page_bytes, nodes) > size_bytes:
        n = size_bytes // pack_va_bytes(page_bytes, nodes) - 1
    return int(n)


def packs(size_bytes, page_bytes=MEASURED_PAGE_BYTES, nodes=1, layout=NO_LAYOUT, cls=None):
    """How many packs objects of cls can use in a region of size_bytes:
    floor((S - F) / (2 MiB x nodes + guard)), less the reserve unless cls may use it
    (RESERVE_CLASSES; cls None: every pack)."""
    total = int((size_bytes - fixed_va_bytes(layout, page_bytes))
                // pack_va_bytes(page_bytes, nodes))
    if cls is None or cls in RESERVE_CLASSES:
        return max(total, 0)
    return max(total - reserve_packs(size_bytes, layout, page_bytes, nodes), 0)


def program_packs(size_bytes, page_bytes=MEASURED_PAGE_BYTES, layout=NO_LAYOUT):
    """The packs eBPF programs can use (the reserve left out)."""
    return max(packs(size_bytes, page_bytes, layout=layout)
               - reserve_packs(size_bytes, layout, page_bytes), 0)


def table_spans(page_bytes):
    """(bytes a PTE table maps, bytes a PMD table maps) with page_bytes pages:
    4 KiB: 2 MiB and 1 GiB; 16 KiB: 32 MiB and 64 GiB; 64 KiB: 512 MiB and 4 TiB."""
    entries = page_bytes // DESCRIPTOR_BYTES
    return entries * page_bytes, entries * entries * page_bytes


def page_tables(size_bytes, page_bytes):
    """Page-table memory a fully mapped region of size_bytes costs with page_bytes pages.

    {"pte_tables", "pmd_tables", "bytes"}: the last-level tables the
    region's range needs and the next-level tables above them (each one
    page), for a region aligned to what they map. Computed, not measured;
    vmalloc never frees page tables, so once the whole region has been
    used this is what it keeps. A PMD table may also map VA around the
    region.
    """
    pte_span, pmd_span = table_spans(page_bytes)
    pte = math.ceil(size_bytes / pte_span)
    pmd = math.ceil(size_bytes / pmd_span)
    return {"pte_tables": pte, "pmd_tables": pmd, "bytes": (pte + pmd) * page_bytes}


def per_pack_at_page(cls, per_pack, page_bytes):
    """Objects of cls per pack with page_bytes pages, from per_pack measured with 4 KiB.

    Programs and trampolines take 64-byte chunks, whatever the page size:
    unchanged. A class whose object holds a page image (struct_ops) takes
    one page plus the rest measured at 4 KiB (its member programs' chunks),
    so PACK / (PACK / per_pack - 4 KiB + page); 2 MiB / page at most.
    """
    if cls not in PAGE_IMAGE_CLASSES or per_pack is None or page_bytes == MEASURED_PAGE_BYTES:
        return per_pack  # (at the measured page size exactly, without float round-off)
    rest = PACK_BYTES / per_pack - MEASURED_PAGE_BYTES
    return PACK_BYTES / (page_bytes + max(rest, 0.0))


# The measured points.

def size_of(x, config):
    """A fill row's x as the region size in MiB (an int when whole)."""
    try:
        v = float(x)
    except ValueError:
        v = None
    if v is None or not v > 0 or v != v or v == float("inf"):
        raise SizingError(f"samples.csv: a fill row of {config} has x '{x}'; x of a fill row"
                          " is the region size in MiB, a positive number (e.g. 8)")
    return int(v) if v == int(v) else v


def collect(samples):
    """({size_mib: config}, {(size, class, metric, round): value}, [classes]).

    A value is the median of its rows (one boot per size in practice).
    Each region size must come from one configuration, and each
    configuration must have one size.
    """
    by_size, by_config, rows, classes = {}, {}, {}, []
    for s in samples:
        size = size_of(s.x, s.config)
        if s.case == REGION_CASE:
            rows.setdefault((size, s.case, s.metric, s.round), []).append(s.value)
            continue
        if by_config.setdefault(s.config, size) != size:
            raise SizingError(f"samples.csv: {s.config} has fill rows for region sizes"
                              f" {by_config[s.config]} and {size} MiB; a configuration has one"
                              " region size")
        if by_size.setdefault(size, s.config) != s.config:
            raise SizingError(f"samples.csv: region size {size} MiB is measured by both"
                              f" {by_size[size]} and {s.config}; the model needs one"
                              " configuration per size")
        rows.setdefault((size, s.case, s.metric, s.round), []).append(s.value)
        if s.case not in classes:
            classes.append(s.case)
    seen = list(classes)  # known classes in CLASSES order, then others as they came
    classes = sorted(seen, key=lambda c: (CLASSES.index(c) if c in CLASSES else len(CLASSES),
                                          seen.index(c)))
    return by_size, {k: stats.median(v) for k, v in rows.items()}, classes


def layout_of(values):
    """The run's Layout: the region's use at boot (the largest seen at any size; the
    staging pool is the same at every size) and whether the kernel keeps a reserve;
    NO_LAYOUT when the run has no "region" rows."""
    region = {}
    for (size, case, metric, rnd), v in values.items():
        if case == REGION_CASE and rnd == 0:
            region.setdefault(metric, []).append(v)
    if not region:
        return NO_LAYOUT
    # The staging pool is an allocation of its own in the region, which the
    # region's counters leave out (pool_bytes; runs before it recorded none).
    pool = int(max(region.get("pool_bytes", [0])))
    return Layout(int(max(region.get("boot_in_use_bytes", [0]))) + pool,
                  int(max(region.get("boot_allocations", [0]))) + (1 if pool else 0),
                  "reserve_bytes" in region)


def recorded_reserves(values):
    """{size_mib: reserve_bytes} as the kernel reported them."""
    return {size: v for (size, case, metric, rnd), v in values.items()
            if case == REGION_CASE and metric == "reserve_bytes" and rnd == 0}


def measured_points(by_size, values, classes, layout=NO_LAYOUT):
    """One dict per (size, class) measured: the failure's figures and whether the fit may use it.

    usable: objects and allocations recorded, allocations > 0, and the
    failure was the region being full (region_failure 1, when recorded).
    """
    out = []
    for size in sorted(by_size):
        for cls in classes:
            metric = {m: v for (sz, c, m, r), v in values.items()
                      if sz == size and c == cls and r == 0}
            if not metric:
                continue
            objects, allocations = metric.get("objects"), metric.get("allocations")
            predicted = packs(size * MIB, layout=layout, cls=cls)
            why = ""
            if objects is None or allocations is None:
                why = "objects or allocations not recorded"
            elif allocations <= 0:
                why = "no region allocation at the failure"
            elif metric.get("region_failure", 1) == 0:
                why = "the failure was not the region being full"
            out.append({
                "size_mib": size, "config": by_size[size], "class": cls,
                "objects": objects, "allocations": allocations, "predicted_packs": predicted,
                "allocations_agree": None if allocations is None else allocations == predicted,
                "objects_per_allocation": objects / allocations if not why else None,
                "errno": metric.get("errno"), "region_failure": metric.get("region_failure"),
                "in_use_bytes": metric.get("in_use_bytes"),
                "high_water_bytes": metric.get("high_water_bytes"),
                "object_jited_bytes": metric.get("object_jited_bytes"),
                "back_to_start": metric.get("back_to_start"),
                "usable": not why, "not_usable_because": why,
            })
    return out


def churn_points(values, points):
    """One dict per (size, class with churn rows, round): kept, refilled and the efficiency.

    efficiency = (kept + refilled) / the first fill's objects.
    """
    first = {(p["size_mib"], p["class"]): p for p in points}
    out = []
    for (size, cls, metric, rnd) in sorted(k for k in values if k[2] == "kept_objects"
                                           and k[3] >= 1):
        kept = values[(size, cls, metric, rnd)]
        refill = values.get((size, cls, "refill_objects", rnd))
        p = first.get((size, cls))
        objects = p["objects"] if p else None
        eff = (kept + refill) / objects if refill is not None and objects else None
        out.append({"size_mib": size, "class": cls, "round": rnd, "kept_objects": kept,
                    "refill_objects": refill,
                    "after_churn_objects": None if refill is None else kept + refill,
                    "efficiency": eff, "usable": bool(p and p["usable"]) and eff is not None})
    return out


# The model.

def spread(values):
    """{"mean", "min", "max"} of values, or None when there are none."""
    if not values:
        return None
    return {"mean": sum(values) / len(values), "min": min(values), "max": max(values)}


def class_sizes(points):
    """{class: {"usable_mib", "fitted_mib", "checked_mib", "why_not_checked"}}: the held-out
    size chosen per class.

    A class is fitted on every size where it has a usable point but its
    largest, and checked against that largest one (measured, not fitted);
    with a single usable size it is fitted on it and not checked
    (checked_mib None, why_not_checked says so). A class without a usable
    point is absent.
    """
    usable = {}
    for p in points:
        if p["usable"]:
            usable.setdefault(p["class"], set()).add(p["size_mib"])
    out = {}
    for cls, sizes in usable.items():
        sizes = sorted(sizes)
        if len(sizes) > 1:
            out[cls] = {"usable_mib": sizes, "fitted_mib": sizes[:-1], "checked_mib": sizes[-1],
                        "why_not_checked": ""}
        else:
            out[cls] = {"usable_mib": sizes, "fitted_mib": sizes, "checked_mib": None,
                        "why_not_checked": f"one usable size ({labels.mib(sizes[0])}), fitted"
                                           " on it: none left to check it against"}
    return out


def fit(points, churn):
    """{class: {"per_size": {size: n}, "objects_per_pack": {mean, min, max},
    "churn_efficiency": {mean, min, max, round, per_size} or absent,
    "usable_mib", "fitted_mib", "checked_mib", "why_not_checked"}}: each class
    from its usable points at its own fitted sizes (class_sizes()), and its
    churn efficiency from its churn rows at those same sizes."""
    sizes = class_sizes(points)
    out = {}
    for p in points:
        cls = p["class"]
        if p["usable"] and p["size_mib"] in sizes[cls]["fitted_mib"]:
            f = out.setdefault(cls, {"per_size": {}})
            f["per_size"][p["size_mib"]] = p["objects_per_allocation"]
    for cls, f in out.items():
        fitted = sizes[cls]["fitted_mib"]
        f["objects_per_pack"] = spread(list(f["per_size"].values()))
        last = {}
        for size in fitted:
            rows = last_rounds(churn, cls, size)
            if rows and all(c["usable"] for c in rows):
                last[size] = (rows[-1]["round"], mean([c["efficiency"] for c in rows]))
        if last:
            f["churn_efficiency"] = dict(spread([e for _, e in last.values()]),
                                         round=max(r for r, _ in last.values()),
                                         per_size={s: e for s, (_, e) in last.items()})
        f.update(sizes[cls])
    return out


def predict_class(cls, f, size_mib, page_bytes=MEASURED_PAGE_BYTES, layout=NO_LAYOUT):
    """{series: objects} of one class at size_mib: n_c x packs, and e x n_c x packs
    after churn."""
    n_packs = packs(size_mib * MIB, page_bytes, layout=layout, cls=cls)
    n = per_pack_at_page(cls, f["objects_per_pack"]["mean"], page_bytes)
    out = {cls: n * n_packs}
    if "churn_efficiency" in f:
        out[cls + CHURN] = f["churn_efficiency"]["mean"] * n * n_packs
    return out


def predict(fits, size_mib, page_bytes=MEASURED_PAGE_BYTES, layout=NO_LAYOUT):
    """{series: objects} at size_mib: n_c x packs, and e x n_c x packs after churn,
    each class with its own fit."""
    out = {}
    for cls, f in fits.items():
        out.update(predict_class(cls, f, size_mib, page_bytes, layout))
    return out


def mean(values):
    return sum(values) / len(values)


def last_rounds(churn, cls, size):
    """The churn rows of cls at size that the model uses: its last CHURN_WINDOW rounds
    (all of them when there are fewer), in round order."""
    rows = sorted((c for c in churn if c["class"] == cls and c["size_mib"] == size
                   and c["efficiency"] is not None), key=lambda c: c["round"])
    return rows[-CHURN_WINDOW:]


def churn_trends(churn):
    """One dict per (class, size) with churn rows: the efficiency at the first and last
    rounds, the mean and range of the last CHURN_WINDOW rounds, the mean of the window
    before, and whether it has settled (the two means within CHURN_SETTLED; None with
    fewer than two windows of rounds)."""
    series = {}
    for c in churn:
        if c["efficiency"] is not None:
            series.setdefault((c["class"], c["size_mib"]), []).append((c["round"],
                                                                       c["efficiency"]))
    out = []
    for (cls, size), pts in sorted(series.items()):
        pts.sort()
        effs = [e for _, e in pts]
        window, before = effs[-CHURN_WINDOW:], effs[-2 * CHURN_WINDOW:-CHURN_WINDOW]
        enough = len(effs) >= 2 * CHURN_WINDOW
        out.append({"class": cls, "size_mib": size, "rounds": len(effs),
                    "first": effs[0], "last": effs[-1], "min": min(effs),
                    "window_mean": mean(window), "window_min": min(window),
                    "window_max": max(window),
                    "before_mean": mean(before) if enough else None,
                    "settled": (abs(mean(window) - mean(before)) <= CHURN_SETTLED
                                if enough else None)})
    return out


def check(fits, points, churn, layout=NO_LAYOUT):
    """Predicted against measured, each class at its own checked size (not fitted), and
    after churn at the same size; a class with no checked size gets a row that says
    why (size_mib, predicted and measured None)."""
    out = []
    for cls, f in fits.items():
        size = f["checked_mib"]
        if size is None:
            for series in [cls] + ([cls + CHURN] if "churn_efficiency" in f else []):
                out.append({"class": series, "size_mib": None, "predicted": None,
                            "measured": None, "relative_error": None, "within_tolerance": None,
                            "why_not_checked": f["why_not_checked"]})
            continue
        measured = {}
        for p in points:
            if p["size_mib"] == size and p["class"] == cls:
                measured[cls] = (p["objects"] if p["usable"] else None, p["not_usable_because"])
        rows = last_rounds(churn, cls, size)
        if rows:
            ok = all(c["usable"] for c in rows)
            measured[cls + CHURN] = (mean([c["after_churn_objects"] for c in rows]) if ok
                                     else None,
                                     "" if ok else "no usable first fill or refill")
        for series, pred in predict_class(cls, f, size, layout=layout).items():
            meas, why = measured.get(series, (None, "not measured"))
            err = (pred - meas) / meas if meas else None
            out.append({"class": series, "size_mib": size, "predicted": pred, "measured": meas,
                        "relative_error": err,
                        "within_tolerance": None if err is None else abs(err) <= TOLERANCE,
                        "why_not_checked": "" if err is not None else (why or "measured 0")})
    return out


def model(run):
    """Everything sizing.md and sizing.json show, as one JSON-able dict; None
    when the run has no fill samples. Raises SizingError on fill rows it
    cannot use.

    Each class has its own fitted and checked sizes (fit[class]["fitted_mib"],
    ["checked_mib"]; check rows carry their size_mib). At the top level,
    fitted_mib is every size some class is fitted on, checked_sizes_mib every
    size some class is checked at, and checked_mib the largest of those
    (None when no class is checked): with every class measured at every size,
    all but the largest size and the largest, as before the choice was per
    class.
    """
    samples = run.fill
    if not samples:
        return None
    by_size, values, classes = collect(samples)
    sizes = sorted(by_size)
    layout = layout_of(values)
    points = measured_points(by_size, values, classes, layout)
    churn = churn_points(values, points)
    fits = fit(points, churn)
    fits = {c: fits[c] for c in classes if c in fits}
    fitted = sorted({s for f in fits.values() for s in f["fitted_mib"]})
    checked = sorted({f["checked_mib"] for f in fits.values() if f["checked_mib"] is not None})
    result = {
        "run_id": run.run_id,
        "geometry": {"pack_bytes": PACK_BYTES, "chunk_bytes": CHUNK_BYTES,
                     "page_bytes": MEASURED_PAGE_BYTES, "guard_pages": GUARD_PAGES,
                     "pack_va_bytes": pack_va_bytes(), "numa_nodes": 1,
                     "fixed_va_bytes": fixed_va_bytes(layout),
                     "reserve": layout.reserve_rule,
                     "packs": (f"floor((S - {labels.size_bytes(fixed_va_bytes(layout))})"
                               f" / ({PACK_BYTES // MIB} MiB + {GUARD_PAGES} page))"
                               if fixed_va_bytes(layout) else
                               f"floor(S / ({PACK_BYTES // MIB} MiB + {GUARD_PAGES} page))")},
        "layout": layout._asdict(),
        "recorded_reserves": recorded_reserves(values),
        "configurations": [{"size_mib": s, "config": by_size[s]} for s in sizes],
        "sizes_mib": sizes, "fitted_mib": fitted, "checked_mib": checked[-1] if checked else None,
        "checked_sizes_mib": checked,
        "classes": classes, "measured": points, "churn": churn,
        "fit": fits,
        "check": check(fits, points, churn, layout),
        "churn_trends": churn_trends(churn),
        "predictions": [{"size_mib": s, "packs": program_packs(s * MIB, layout=layout),
                         "all_packs": packs(s * MIB, layout=layout),
                         "objects": predict(fits, s, layout=layout)}
                        for s in EXTRAPOLATE_MIB],
        "page_tables": [{"size_mib": s, **{page_name(p): page_tables(s * MIB, p)
                                          for p in PAGE_SIZES}}
                        for s in EXTRAPOLATE_MIB],
        "page_sizes": [{"page": page_name(p), "page_bytes": p,
                        "pack_va_bytes": pack_va_bytes(p),
                        "fixed_va_bytes": fixed_va_bytes(layout, p),
                        "objects_per_pack": {c: per_pack_at_page(c, f["objects_per_pack"]["mean"],
                                                                 p) for c, f in fits.items()},
                        "predictions": [{"size_mib": s,
                                         "packs": program_packs(s * MIB, p, layout),
                                         "all_packs": packs(s * MIB, p, layout=layout),
                                         "objects": predict(fits, s, p, layout)}
                                        for s in EXTRAPOLATE_MIB]}
                       for p in PAGE_SIZES],
    }
    result["notes"] = notes(result, run)
    result["assumptions"] = ASSUMPTIONS
    return result


def page_name(page_bytes):
    return f"{page_bytes // 1024}K"


def notes(result, run):
    """What the reader should know about the data besides the tables: points left out,
    disagreements with the geometry, leaks, configurations without samples."""
    out = []
    if len(result["sizes_mib"]) == 1:
        out.append(f"only one region size measured ({labels.mib(result['sizes_mib'][0])}):"
                   " the model is fitted on it and nothing is left to check it against")
    for p in result["measured"]:
        where = f"{p['class']} at {labels.mib(p['size_mib'])}"
        if not p["usable"]:
            out.append(f"{where}: left out of the fit and the check: {p['not_usable_because']}")
        if p["allocations_agree"] is False:
            out.append(f"{where}: {labels.count(p['allocations'])} allocations at the failure,"
                       f" the VA rule predicts {p['predicted_packs']} packs")
        if p["back_to_start"] == 0:
            out.append(f"{where}: the region's use did not return to its start after unloading"
                       " (a leak, or frees still deferred)")
    for cls in result["classes"]:
        if cls not in result["fit"]:
            out.append(f"{cls}: no usable point at any size; not modelled")
    layout = Layout(**result["layout"])
    for size, got in sorted(result["recorded_reserves"].items()):
        want = reserve_packs(size * MIB, layout) * PACK_BYTES
        if got != want:
            out.append(f"at {labels.mib(size)} the kernel reported a reserve of"
                       f" {labels.size_bytes(got)}, the default rule gives"
                       f" {labels.size_bytes(want)}")
    measured = [c["config"] for c in result["configurations"]]
    missing = [c for c in run.fill_configs if c not in measured]
    if missing:
        out.append(f"fill configurations without fill samples: {', '.join(missing)}")
    return out


ASSUMPTIONS = [
    f"with N NUMA nodes a pack is N x {PACK_BYTES // MIB} MiB (BPF_PROG_PACK_SIZE = SZ_2M *"
    " num_possible_nodes()): N times the objects per pack and about 1/N the packs per region;"
    " the measured guests have one node",
    "nothing but BPF JIT memory and what the region held at boot allocates in it, as in the"
    " measured kernels; staging that falls back to the region when the pool is full is"
    " transient and not counted",
    f"eBPF program classes do not use the reserve (the kernel's default: S / {RESERVE_DIVISOR}"
    f" rounded down to {RESERVE_STEP // MIB} MiB, in whole packs, none below 64 MiB), which"
    " trampolines and struct_ops images may; the measured sizes have none, so the reserve's"
    " effect is computed, not measured",
]


def size_groups(result):
    """[((fitted sizes), checked size or None, [classes])]: the modelled classes grouped by
    their fitted and checked sizes, in class order."""
    groups = {}
    for cls, f in result["fit"].items():
        groups.setdefault((tuple(f["fitted_mib"]), f["checked_mib"]), []).append(cls)
    return [(fitted, checked, classes) for (fitted, checked), classes in groups.items()]


def mibs(sizes):
    return ", ".join(labels.mib(s) for s in sizes)


def checked_line(result):
    """'fitted on 4 MiB, 8 MiB; checked against 16 MiB (measured, not fitted)' when every
    class has the same sizes; otherwise per group of classes, 'p50, p75 fitted on 4 MiB,
    8 MiB and checked against 16 MiB; trampoline fitted on 4 MiB and checked against
    8 MiB (each at its largest usable size: measured, not fitted)'."""
    groups = size_groups(result)
    if not groups:
        return "nothing fitted: no usable point at any size"
    if len(groups) == 1:
        fitted, checked, _ = groups[0]
        if checked is None:
            return f"fitted on {mibs(fitted)}; no other usable size measured to check it against"
        return (f"fitted on {mibs(fitted)}; checked against {labels.mib(checked)}"
                " (measured, not fitted)")
    parts = []
    for fitted, checked, classes in groups:
        parts.append(f"{', '.join(classes)} fitted on {mibs(fitted)} and "
                     + (f"checked against {labels.mib(checked)}" if checked is not None
                        else "not checked (no other usable size)"))
    return "; ".join(parts) + " (each at its largest usable size: measured, not fitted)"


def verdict(result):
    """One sentence: is every checked prediction within the tolerance?"""
    rows = result["check"]
    if not rows:
        return "Not checked."
    bad = [r["class"] for r in rows if r["within_tolerance"] is False]
    unchecked = [r["class"] for r in rows if r["within_tolerance"] is None]
    pct = f"{TOLERANCE * 100:.0f}%"
    if bad:
        text = f"Not within {pct}: {', '.join(bad)}."
    elif len(rows) > len(unchecked):
        text = f"All {len(rows) - len(unchecked)} checked predictions are within {pct}."
    else:
        text = "No prediction checked."
    if unchecked:
        text += f" Not checked: {', '.join(unchecked)}."
    return text


# Output.

def errno_text(v):
    """524 -> '524 ENOTSUPP', 12 -> '12 ENOMEM'."""
    if v is None:
        return "-"
    n = int(v)
    return f"{n} {KERNEL_ERRNOS.get(n, errno.errorcode.get(n, ''))}".strip()


def yes_no(v):
    return "-" if v is None else ("yes" if v else "no")


def md_table(header, rows, left=1):
    """A Markdown table, its first `left` columns (names) left-aligned, the rest
    (numbers) right-aligned."""
    out = ["| " + " | ".join(header) + " |",
           "|" + "|".join("---" if i < left else "---:" for i in range(len(header))) + "|"]
    out += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return out + [""]


def series_names(result):
    """The modelled series in order: each class, and '<class> after churn' after it."""
    out = []
    for cls, f in result["fit"].items():
        out.append(cls)
        if "churn_efficiency" in f:
            out.append(cls + CHURN)
    return out


def markdown(result):
    r = result
    g = r["geometry"]
    out = [f"# BPF JIT region sizing: {r['run_id']}", ""]
    out.append("- configurations: " + "; ".join(f"{labels.mib(c['size_mib'])}: {c['config']}"
                                                for c in r["configurations"]))
    out.append(f"- kernel geometry (not measured): packs of {labels.size_bytes(g['pack_bytes'])}"
               f" per NUMA node in {g['chunk_bytes']}-byte chunks; each takes"
               f" {labels.size_bytes(g['pack_va_bytes'])} of region VA with its guard page, so"
               f" packs(S) = {g['packs']}"
               + (f" (the VA held at boot, recorded by the run), less the reserve for eBPF"
                  f" programs ({', '.join(RESERVE_CLASSES)} may use it)"
                  if g.get("reserve") else ""))
    out.append("- model: objects_c(S) = n_c x packs(S), n_c = objects / allocations at the"
               " failure (mean over the class's fitted sizes); after churn e x n_c x packs(S)")
    out.append("- each class is fitted on every size where it has a usable point but its"
               " largest, and checked against that largest one (not fitted); with one usable"
               " size it is fitted on it and not checked")
    out.append(f"- sizes: {checked_line(r)}")
    out.append(f"- held at boot: {layout_line(r)}")
    out.append("")
    out += ["## Classes", ""]
    out += [f"- {c}: {CLASS_TEXT.get(c, 'not described')}" for c in r["classes"]]
    out.append("")

    out += ["## Measured: the first failed load", ""]
    rows = []
    for p in r["measured"]:
        role = point_role(r, p)
        rows.append([labels.mib(p["size_mib"]), p["config"], p["class"], role,
                     labels.count(p["objects"]), labels.count(p["allocations"]),
                     p["predicted_packs"], yes_no(p["allocations_agree"]),
                     labels.count(p["objects_per_allocation"]), errno_text(p["errno"]),
                     yes_no(p["region_failure"]), labels.size_bytes(p["in_use_bytes"]),
                     labels.size_bytes(p["high_water_bytes"]),
                     labels.count(p["object_jited_bytes"]), yes_no(p["back_to_start"])])
    out += md_table(["region", "configuration", "class", "role", "objects", "allocations",
                     "packs (VA rule)", "agree", "objects / allocation", "errno",
                     "region full", "in use", "high water", "JIT bytes / object",
                     "back to start"], rows, left=4)

    if r["churn"]:
        out += ["## Churn: unload a pseudo-random half, fill again", ""]
        out += md_table(["region", "class", "round", "kept", "loaded again", "after churn",
                         "efficiency"],
                        [[labels.mib(c["size_mib"]), c["class"], c["round"],
                          labels.count(c["kept_objects"]), labels.count(c["refill_objects"]),
                          labels.count(c["after_churn_objects"]), fmt_ratio(c["efficiency"])]
                         for c in r["churn"]], left=2)
        out += [f"- {t}" for t in trend_lines(r)] + [""]

    out += ["## Model: objects per pack (fitted)", ""]
    rows = []
    for cls, f in r["fit"].items():
        n = f["objects_per_pack"]
        checked = "-" if f["checked_mib"] is None else labels.mib(f["checked_mib"])
        rows.append([cls, labels.count(n["mean"]), labels.count(n["min"]), labels.count(n["max"]),
                     fmt_spread(n), "; ".join(f"{labels.mib(s)}: {labels.count(v)}"
                                              for s, v in f["per_size"].items()), checked])
        if "churn_efficiency" in f:
            e = f["churn_efficiency"]
            rows.append([cls + CHURN, f"e = {fmt_ratio(e['mean'])}", fmt_ratio(e["min"]),
                         fmt_ratio(e["max"]), fmt_spread(e),
                         f"round {e['round']}: " + "; ".join(
                             f"{labels.mib(s)}: {fmt_ratio(v)}" for s, v in e["per_size"].items()),
                         checked])
    out += md_table(["class", "n (mean)", "min", "max", "spread", "per fitted size",
                     "checked at"], rows)

    if r["check"]:
        where = mibs(r["checked_sizes_mib"])
        out += [f"## Check{' at ' + where if where else ''} (not fitted)", ""]
        out += ["Each class at its largest usable size, predicted by its fit on its smaller"
                " ones.", ""]
        out += md_table(["class", "region", "predicted", "measured", "error",
                         f"within {TOLERANCE * 100:.0f}%"],
                        [[c["class"], labels.mib(c["size_mib"]) if c["size_mib"] else "-",
                          labels.count(c["predicted"], whole=True),
                          labels.count(c["measured"]), labels.percent(c["relative_error"]),
                          yes_no(c["within_tolerance"]) if c["within_tolerance"] is not None
                          else f"not checked: {c['why_not_checked']}"] for c in r["check"]],
                        left=2)
        out += [verdict(r), ""]

    names = series_names(r)
    out += ["## Predicted objects before the first failure (4 KiB pages)", ""]
    out += md_table(["region", "packs (programs)", "packs (all)"] + names,
                    [[labels.mib(p["size_mib"]), labels.count(p["packs"]),
                      labels.count(p.get("all_packs", p["packs"]))]
                     + [labels.count(p["objects"].get(n), whole=True) for n in names]
                     for p in r["predictions"]])

    out += ["## Page-table memory of the region (computed from the page geometry,"
            " not measured)", ""]
    spans = "; ".join(f"{labels.size_bytes(p)} pages: a PTE table maps"
                      f" {labels.size_bytes(table_spans(p)[0])}, a PMD table"
                      f" {labels.size_bytes(table_spans(p)[1])}" for p in PAGE_SIZES)
    out += ["vmalloc does not free page tables: the cost of the region fully mapped,"
            " last-level (PTE) tables plus the PMD-level tables above them (which may also"
            f" map VA around the region), the region aligned. A table is one page; {spans}.",
            ""]
    out += md_table(["region"] + [f"{p // 1024} KiB pages" for p in PAGE_SIZES],
                    [[labels.mib(t["size_mib"])]
                     + [f"{labels.size_bytes(t[page_name(p)]['bytes'])}"
                        f" ({t[page_name(p)]['pte_tables']} PTE + {t[page_name(p)]['pmd_tables']}"
                        " PMD)" for p in PAGE_SIZES] for t in r["page_tables"]])

    out += ["## 16 KiB and 64 KiB pages (computed)", ""]
    out += ["Packs stay 2 MiB but the guard page is PAGE_SIZE: packs(S) = floor((S - F) / (2"
            " MiB + PAGE_SIZE)), F the VA held at boot with PAGE_SIZE guard pages. Programs"
            f" and trampolines take {CHUNK_BYTES}-byte chunks, so their"
            " objects per pack do not change; a struct_ops image is a whole page (at most "
            + ", ".join(str(PACK_BYTES // p) for p in PAGE_SIZES) + " per pack), plus the rest"
            " of the object as measured with 4 KiB pages.", ""]
    by_page = r["page_sizes"]
    out += md_table(["class"] + [f"per pack, {ps['page']}" for ps in by_page],
                    [[c] + [labels.count(ps["objects_per_pack"][c]) for ps in by_page]
                     for c in r["fit"]])
    for ps in by_page:
        if ps["page_bytes"] == MEASURED_PAGE_BYTES:
            continue
        out += [f"### {ps['page_bytes'] // 1024} KiB pages", ""]
        out += md_table(["region", "packs (programs)", "packs (all)"] + names,
                        [[labels.mib(p["size_mib"]), labels.count(p["packs"]),
                          labels.count(p.get("all_packs", p["packs"]))]
                         + [labels.count(p["objects"].get(n), whole=True) for n in names]
                         for p in ps["predictions"]])
    out += ["## Notes", ""] + [f"- {n}" for n in r["notes"] + r["assumptions"]] + [""]
    return "\n".join(out)


def point_role(result, p):
    """A measured point's part in its class's model: fitted, checked or left out."""
    f = result["fit"].get(p["class"])
    if not p["usable"] or f is None:
        return "left out"
    if p["size_mib"] == f["checked_mib"]:
        return "checked"
    return "fitted" if p["size_mib"] in f["fitted_mib"] else "left out"


def trend_lines(result):
    """One sentence per (class, size) with churn rows: where the efficiency went and
    whether it has settled."""
    out = []
    for t in result["churn_trends"]:
        where = f"{t['class']} at {labels.mib(t['size_mib'])}"
        n = t["rounds"]
        trend = (f"churn efficiency {fmt_ratio(t['first'])} at round 1; over the last"
                 f" {min(n, CHURN_WINDOW)} of {n} rounds {fmt_ratio(t['window_mean'])}"
                 f" ({fmt_ratio(t['window_min'])} to {fmt_ratio(t['window_max'])})")
        if t["settled"] is None:
            out.append(f"{where}: {trend}; fewer than {2 * CHURN_WINDOW} rounds: whether it"
                       " has settled is not known")
        elif t["settled"]:
            out.append(f"{where}: {trend}; settled (the {CHURN_WINDOW} rounds before:"
                       f" {fmt_ratio(t['before_mean'])})")
        else:
            out.append(f"{where}: {trend}; NOT settled (the {CHURN_WINDOW} rounds before:"
                       f" {fmt_ratio(t['before_mean'])}): the after-churn prediction may"
                       " be high")
    return out


def layout_line(result):
    """What was subtracted from every region before counting packs."""
    layout = Layout(**result["layout"])
    if layout == NO_LAYOUT:
        return ("the run records no \"region\" rows (a kernel before the staging pool moved"
                " into the region and before the reserve): packs(S) counts the whole region")
    return (f"the region held {labels.size_bytes(layout.boot_bytes)} in"
            f" {layout.boot_allocations} allocation(s) at boot (the staging pool):"
            f" {labels.size_bytes(fixed_va_bytes(layout))} of VA with guard pages, subtracted"
            " from every region")


def fmt_ratio(v):
    return "-" if v is None else f"{v:.3f}"


def fmt_spread(s):
    """(max - min) / mean as a percentage."""
    return "-" if not s["mean"] else f"{(s['max'] - s['min']) / s['mean'] * 100:.1f}%"


def measured_series(result):
    """{series: [(size_mib, objects)]} as measured: each class's first fill,
    and '<class> after churn' (kept + loaded again at the last round)."""
    out = {}
    for p in result["measured"]:
        out.setdefault(p["class"], []).append((p["size_mib"], p["objects"]))
    for cls, size in sorted({(c["class"], c["size_mib"]) for c in result["churn"]}):
        rows = last_rounds(result["churn"], cls, size)
        if rows:
            out.setdefault(cls + CHURN, []).append(
                (size, mean([c["after_churn_objects"] for c in rows])))
    return out


def checked_sizes(result):
    """{series: the size it is checked at}, for the series that are checked ('<class>
    after churn' with its class)."""
    out = {}
    for cls, f in result["fit"].items():
        if f["checked_mib"] is not None:
            out[cls] = out[cls + CHURN] = f["checked_mib"]
    return out


def model_series(result, sizes_mib):
    """{series: [(size_mib, predicted objects)]} of the model at sizes_mib."""
    out = {}
    layout = Layout(**result["layout"])
    for size in sizes_mib:
        for name, v in predict(result["fit"], size, layout=layout).items():
            out.setdefault(name, []).append((size, v))
    return out


def write_tables(result, outdir):
    """Write sizing.md and sizing.json into outdir; return their paths.
    (plots.sizing() draws plots/sizing.png and .pdf.)"""
    os.makedirs(outdir, exist_ok=True)
    paths = []
    path = os.path.join(outdir, "sizing.md")
    with open(path, "w") as f:
        f.write(markdown(result))
    paths.append(path)
    path = os.path.join(outdir, "sizing.json")
    with open(path, "w") as f:
        json.dump(result, f, indent=1)
        f.write("\n")
    paths.append(path)
    return paths


def summary_lines(result):
    """The report's few lines: objects per pack, predictions at REPORT_MIB, the check."""
    r = result
    out = [f"sizing (fill workload): {checked_line(r)}"]
    parts = []
    for cls, f in r["fit"].items():
        parts.append(f"{cls} {labels.count(f['objects_per_pack']['mean'])}")
        if "churn_efficiency" in f:
            parts.append(f"{cls}{CHURN} x{fmt_ratio(f['churn_efficiency']['mean'])}")
    out.append(f"  objects per {PACK_BYTES // MIB} MiB pack: " + (", ".join(parts) or "none"))
    names = series_names(r)
    layout = Layout(**r["layout"])
    for size in REPORT_MIB:
        objs = predict(r["fit"], size, layout=layout)
        out.append(f"  predicted at {labels.mib(size)}"
                   f" ({program_packs(size * MIB, layout=layout)} packs for programs): "
                   + (", ".join(f"{n} {labels.count(objs[n], whole=True)}" for n in names)
                      or "nothing"))
    if r["check"]:
        by_size = {}
        for c in r["check"]:
            by_size.setdefault(c["size_mib"], []).append(c)
        parts = [f"at {labels.mib(size)}: " + ", ".join(
            f"{c['class']} {labels.percent(c['relative_error'])}" for c in rows)
            for size, rows in by_size.items() if size is not None]
        if None in by_size:
            parts.append("not checked: " + ", ".join(
                f"{c['class']} ({c['why_not_checked']})" for c in by_size[None]))
        out.append("  check " + "; ".join(parts))
        out.append(f"  {verdict(r)}")
    out += [f"  churn: {t}" for t in trend_lines(r)]
    out += [f"  note: {n}" for n in r["notes"]]
    return out
