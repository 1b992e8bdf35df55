#!/usr/bin/python3
"""Write the fixture runs under analysis/tests/fixtures/ (checked in; rerun to change them).

The fixtures stand in for benchmarks/run output: the same files, columns and
metadata keys, with figures of plausible size, made from a seeded random
generator so they come out the same every time. What the tests rely on is
built in exactly: under icount, series costs exactly 5 guest instructions
per call more than vanilla for bpf_loop; warm-up rows are far off so that
keeping one would show.

  ok/20260101-120000-quick        vanilla (baseline), series; icount and wall
  failed/20260102-120000-quick    as ok, plus series-region whose boots failed
  malformed/20260103-120000-quick samples.csv with a bad header
  nometa/20260104-120000-quick    samples.csv but no metadata.json
  fill/20260105-120000-quick      vanilla, series, series-region-off (pair: series
                                  against series-region-off), and the fill
                                  configurations series-region-4m..32m

usage: analysis/tests/make_fixtures.py
"""
import csv
import json
import os
import random
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "fixtures")
HEADER = ["config", "clock", "boot", "workload", "case", "x", "metric", "unit", "round",
          "warmup", "value"]
ROUNDS, WARMUP = 5, 1
SIZES = [8, 512, 4096]
SUBPROGS = [1, 8]
REAL = {"xdp_drop": 410000, "kprobe_counter": 1350000}
# Guest instructions per call under vanilla, and what series adds.
CALLS = {"dispatcher": (11.02, 0.0), "bpf_loop": (23.04, 5.0), "for_each": (31.10, 5.0),
         "tail_call": (18.00, 0.0), "bpf2bpf": (6.00, 5.0), "fentry": (96.40, 5.0),
         "fexit": (112.30, 5.0), "freplace": (14.00, 5.0), "struct_ops": (44.10, 7.0)}
SERIES_LOAD = {"series": 1.04, "series-region": 1.05, "series-region-off": 1.03}
WALL_PER_INSN = 2.7  # ns per guest instruction under TCG, roughly


def jitter(rng, v, rel):
    return v * (1 + rng.uniform(-rel, rel))


def rows_load(rng, config, clock):
    factor = SERIES_LOAD.get(config, 1.0)
    scale, rel = (1.0, 0.002) if clock == "icount" else (WALL_PER_INSN, 0.06)
    points = [("straight", n, 180000 + 850 * n) for n in SIZES]
    points += [("branchy", n, 190000 + 1300 * n) for n in SIZES]
    points += [("subprogs", n, 260000 + 52000 * n) for n in SUBPROGS]
    points += [(f"real:{name}", "", base) for name, base in REAL.items()]
    for case, x, base in points:
        size = x if case in ("straight", "branchy") else 64
        jited = 4 * (size + 12) + (8 if factor > 1 else 0)
        for r in range(ROUNDS + WARMUP):
            wu = r < WARMUP
            cold = 1.8 if wu else 1.0
            load = jitter(rng, base * factor * scale * cold, rel)
            yield ("load", case, x, "load_ns", "ns", r, wu, load)
            yield ("load", case, x, "verify_ns", "ns", r, wu, load * 0.55)
            yield ("load", case, x, "jit_ns", "ns", r, wu, load * 0.25)
            yield ("load", case, x, "jited_bytes", "bytes", r, wu, jited)
            if not case.startswith("real:"):
                yield ("load", case, x, "unload_ns", "ns", r, wu, jitter(rng, 9000 * scale, rel))


def rows_call(rng, config, clock):
    icount_steps = [0.0, 0.02, 0.0, 0.01, 0.0]
    for case, (base, extra) in CALLS.items():
        cost = base + (extra if config != "vanilla" else 0.0)
        for r in range(ROUNDS + WARMUP):
            wu = r < WARMUP
            if clock == "icount":
                v = cost * 3 if wu else cost + icount_steps[(r - WARMUP) % len(icount_steps)]
            else:
                v = jitter(rng, cost * WALL_PER_INSN * (3 if wu else 1), 0.08)
            yield ("call", case, "", "call_ns", "ns", r, wu, v)


def rows_attach(rng, config, clock):
    scale, rel = (1.0, 0.003) if clock == "icount" else (WALL_PER_INSN, 0.07)
    factor = 1.02 if config != "vanilla" else 1.0
    for case, base in (("fentry", 820000), ("fexit", 830000), ("struct_ops", 1900000)):
        for r in range(ROUNDS + WARMUP):
            wu = r < WARMUP
            yield ("attach", case, "", "attach_ns", "ns", r, wu,
                   jitter(rng, base * factor * scale * (2 if wu else 1), rel))
            yield ("attach", case, "", "detach_ns", "ns", r, wu,
                   jitter(rng, base * 0.4 * scale, rel))


def rows_mem(config):
    region = config != "vanilla"
    for cls, insns, counts in (("small", 8, [1, 10, 100, 1000]),
                               ("medium", 512, [1, 10, 100, 1000]),
                               ("large", 8192, [1, 10, 100])):
        per = 4 * (insns + 12) + (8 if region else 0)
        n = 0
        for n in counts:
            jited = per * n
            packs = -(-jited // (2 << 20)) if insns < 4096 else 0
            vmalloc = packs * (2 << 20) + (0 if insns < 4096 else n * -(-per // 4096) * 4096)
            for metric, unit, v in (("vmalloc_bytes", "bytes", vmalloc),
                                    ("packs", "count", packs),
                                    ("prog_vmalloc_bytes", "bytes", vmalloc - packs * (2 << 20)),
                                    ("slab_bytes", "bytes", n * 1900 + 12288),
                                    ("memfree_bytes", "bytes", vmalloc + n * 6200 + 40960),
                                    ("jited_bytes", "bytes", jited)):
                yield ("mem", cls, n, metric, unit, 0, False, v)
        gone = (2 << 20) if region and insns < 4096 else 0
        for metric, unit, v in (("vmalloc_bytes", "bytes", gone), ("packs", "count", gone >> 21),
                                ("prog_vmalloc_bytes", "bytes", 0), ("slab_bytes", "bytes", 4096),
                                ("memfree_bytes", "bytes", gone + 8192),
                                ("jited_bytes", "bytes", 0)):
            yield ("mem", f"{cls}-unloaded", n, metric, unit, 0, False, v)


def rows_tlb(config):
    region = config != "vanilla"
    ops = {"load_new_pack": (64, {"tlbi": 3, "dsb": 6, "isb": 2, "dc": 9, "ic": 9, "dmb": 4,
                                  "ipi": 1}),
           "load_existing_pack": (64, {"tlbi": 0, "dsb": 2, "isb": 1, "dc": 9, "ic": 9, "dmb": 3,
                                       "ipi": 0}),
           "fentry_attach": ("", {"tlbi": 2, "dsb": 5, "isb": 2, "dc": 4, "ic": 4, "dmb": 6,
                                  "ipi": 1}),
           "struct_ops_reg": ("", {"tlbi": 2, "dsb": 5, "isb": 2, "dc": 3, "ic": 3, "dmb": 5,
                                   "ipi": 1})}
    for case, (x, counts) in ops.items():
        for r in range(ROUNDS):
            for metric, v in counts.items():
                if region and metric == "tlbi" and case != "load_existing_pack":
                    v += 1  # the staging alias is unmapped once per operation
                if metric == "dc" and r == ROUNDS - 1:
                    v += 2  # one op that crossed a page
                yield ("tlb", case, x, metric, "count", r, False, v)
                if metric in ("tlbi", "dsb", "dc", "ic"):
                    op = {"tlbi": "vale1is", "dsb": "ish", "dc": "cvau", "ic": "ivau"}[metric]
                    yield ("tlb", case, x, f"{metric}.{op}", "count", r, False, v)


def rows_probe(config):
    """A workload analysis does not know: it must land in the generic table."""
    for r in range(3):
        yield ("probe", "kprobe_hit", "", "hit_ns", "ns", r, False, 500.0 + r
               + (3 if config != "vanilla" else 0))


# The fill run. Objects per 2 MiB pack follow the kernel's geometry
# (kernel/bpf/core.c): a pack is 32768 chunks of 64 bytes; a program of JIT
# size j takes round_up(j + sizeof(struct bpf_binary_header) (8) + 16, 64)
# bytes of it (bpf_jit_binary_pack_alloc), a trampoline its size rounded up
# to a chunk, a struct_ops image one 4 KiB page. A pack and its guard page
# take 2 MiB + 4 KiB of the region.
MIB = 1 << 20
PACK, CHUNK, PAGE = 2 * MIB, 64, 4096
FILL_SIZES = {"series-region-4m": 4, "series-region-8m": 8, "series-region-16m": 16,
              "series-region-32m": 32}


def prog_chunks(jited):
    return -(-(jited + 8 + 16) // CHUNK)


def image_chunks(size):
    return -(-size // CHUNK)


# class: (object_jited_bytes, chunks per object). trampoline: a 96-byte
# target, a 212-byte fentry program and a 300-byte trampoline; struct_ops: a
# page and three 60-byte member programs.
FILL_CLASSES = {
    "p50": (500, prog_chunks(500)),                                  # 9 chunks: 3640 a pack
    "p75": (2048, prog_chunks(2048)),                                # 33: 992
    "largest": (229252, prog_chunks(229252)),                        # 3583: 9
    "trampoline": (96 + 212, prog_chunks(96) + prog_chunks(212) + image_chunks(300)),  # 11: 2978
    "struct_ops": (0, image_chunks(PAGE) + 3 * prog_chunks(60)),     # 70: 468
}
# mix: half p50, a quarter p75, a quarter 16 KiB programs: 77 chunks an object
# on average, 425 a pack.
MIX_CHUNKS = (2 * prog_chunks(500) + prog_chunks(2048) + prog_chunks(16384)) / 4
CHURN_EFFICIENCY = (0.96, 0.945, 0.93)  # (kept + loaded again) / first fill, per round
# At the largest size (the check, not fitted) a few classes fall a little
# short of the geometry: the last object's second allocation failed.
CHECK_SHORT = {"trampoline": 2, "struct_ops": 1, "mix": 3}


def fill_per_pack():
    """{class: objects per pack} that the fixture is built from (and the tests expect)."""
    out = {cls: (PACK // CHUNK) // chunks for cls, (_, chunks) in FILL_CLASSES.items()}
    out["mix"] = int((PACK // CHUNK) / MIX_CHUNKS)
    return out


def rows_fill(size_mib, largest):
    """The rows fill.c writes for one region size."""
    packs = size_mib * MIB // (PACK + PAGE)
    per_pack = fill_per_pack()
    for cls in list(FILL_CLASSES) + ["mix"]:
        objects = per_pack[cls] * packs - (CHECK_SHORT.get(cls, 0) if largest else 0)
        for metric, unit, v in (("objects", "count", objects), ("errno", "errno", 524),
                                ("region_failure", "bool", 1), ("allocations", "count", packs),
                                ("in_use_bytes", "bytes", packs * PACK),
                                ("high_water_bytes", "bytes", packs * PACK)):
            yield ("fill", cls, size_mib, metric, unit, 0, False, v)
        if cls != "mix":
            yield ("fill", cls, size_mib, "object_jited_bytes", "bytes", 0, False,
                   FILL_CLASSES[cls][0])
            yield ("fill", cls, size_mib, "back_to_start", "bool", 0, False, 1)
            continue
        total = objects
        for rnd, eff in enumerate(CHURN_EFFICIENCY, 1):
            kept = total // 2
            total = round(objects * eff)
            yield ("fill", cls, size_mib, "kept_objects", "count", rnd, False, kept)
            yield ("fill", cls, size_mib, "refill_objects", "count", rnd, False, total - kept)
        yield ("fill", cls, size_mib, "back_to_start", "bool", 0, False, 1)


def samples(configs, seed=1):
    rng = random.Random(seed)
    out = []

    def add(config, clock, boot, rows):
        for w, case, x, metric, unit, r, wu, v in rows:
            out.append([config, clock, boot, w, case, x, metric, unit, r, int(wu), f"{v:.3f}"])

    for config in configs:
        add(config, "icount", 0, rows_call(rng, config, "icount"))
        add(config, "icount", 0, rows_load(rng, config, "icount"))
        add(config, "icount", 0, rows_attach(rng, config, "icount"))
        add(config, "icount", 0, rows_mem(config))
        add(config, "icount", 0, rows_tlb(config))
        add(config, "icount", 0, rows_probe(config))
    for config in configs:  # the determinism repeat: call, identical figures
        add(config, "icount", 1, rows_call(rng, config, "icount"))
    for boot in range(2):
        for config in configs:
            add(config, "wall", boot, rows_call(rng, config, "wall"))
            add(config, "wall", boot, rows_load(rng, config, "wall"))
            add(config, "wall", boot, rows_attach(rng, config, "wall"))
    return out


def boots(configs, failed=(), fill=()):
    out = []
    main = [c for c in configs if c not in fill]
    plan = [(c, "icount", 0) for c in main] + [(c, "icount", 1) for c in main]
    plan += [(c, "wall", b) for b in range(2) for c in main]
    plan += [(c, "wall", 0) for c in fill]
    for c, clock, b in plan:
        bad = c in failed
        out.append({"config": c, "clock": clock, "boot": b, "variant": configs[c][0],
                    "boot_args": configs[c][1], "accel": "tcg", "icount": clock == "icount",
                    "smp": 2, "mem_mib": 2048, "seconds": 0 if bad else 600,
                    "dir": f"boots/{c}-{clock}-{b}", "status": "failed" if bad else "ok",
                    "reason": "vm/run exited 125: guest panicked (Kernel panic - not syncing:"
                              " bpf_jit_region: no space for the region)" if bad else ""})
    return out


def metadata(run_id, configs, failed=(), pairs=None, fill=None):
    """metadata.json; pairs and fill (the new keys) only when given."""
    meta = {
        "kind": "bench", "run_id": run_id, "date": f"{run_id[:4]}-{run_id[4:6]}-{run_id[6:8]}"
        "T12:00:00+00:00", "arch": "arm64",
        "project": {"commit": "0123456789abcdef0123456789abcdef01234567", "dirty": False},
        "configurations": {n: {"variant": v, "source": "pristine" if v == "vanilla" else "series",
                               "boot_args": a, "kernel_release": "6.12.118+",
                               "config_sha256": "0" * 64, "image_sha256": "1" * 64}
                           for n, (v, a) in configs.items()},
        "qemu": {"version": "QEMU emulator version 7.2.22"},
        "boots": boots(configs, failed, fill or ()),
        "toolchain": {"clang": "Debian clang version 19"},
        "host": {"cpu_model": "fixture", "cpus": 2, "machine": "x86_64", "kernel": "6.1.0"},
        "baseline": "vanilla", "profile": "quick", "clocks": ["icount", "wall"],
        "workloads": ["call", "load", "attach", "mem", "tlb"],
        "kvm": "unavailable: x86_64 host cannot run an arm64 guest under KVM",
        "determinism": {"checked": True, "identical": True, "compared": 2 * len(CALLS) * ROUNDS,
                        "differing": [], "workloads": ["call"]},
        "command": "benchmarks/run",
    }
    if pairs is not None:
        meta["pairs"] = pairs
    if fill is not None:
        meta["fill_configurations"] = fill
    return meta


def write_run(path, meta, rows, header=HEADER):
    os.makedirs(path)
    if meta is not None:
        with open(os.path.join(path, "metadata.json"), "w") as f:
            json.dump(meta, f, indent=1)
            f.write("\n")
    with open(os.path.join(path, "samples.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)


def main():
    if os.path.isdir(FIXTURES):
        shutil.rmtree(FIXTURES)
    two = {"vanilla": ("vanilla", ""), "series": ("series", "")}
    three = dict(two, **{"series-region": ("series", "bpf_jit_region=on")})
    rows = samples(two)
    write_run(os.path.join(FIXTURES, "ok", "20260101-120000-quick"),
              metadata("20260101-120000-quick", two), rows)
    write_run(os.path.join(FIXTURES, "failed", "20260102-120000-quick"),
              metadata("20260102-120000-quick", three, failed=["series-region"]), rows)
    bad = [h if h != "warmup" else "warm_up" for h in HEADER]
    write_run(os.path.join(FIXTURES, "malformed", "20260103-120000-quick"),
              metadata("20260103-120000-quick", two), rows[:20], header=bad)
    write_run(os.path.join(FIXTURES, "nometa", "20260104-120000-quick"), None, rows[:20])
    compared = dict(two, **{"series-region-off": ("series", "bpf_jit_region=off")})
    fill = {name: ("series", f"bpf_jit_region={mib}M") for name, mib in FILL_SIZES.items()}
    rows = samples(compared, seed=5)
    for name, mib in FILL_SIZES.items():
        rows += [[name, "wall", 0, w, case, x, metric, unit, r, int(wu), f"{v:.3f}"]
                 for w, case, x, metric, unit, r, wu, v
                 in rows_fill(mib, mib == max(FILL_SIZES.values()))]
    write_run(os.path.join(FIXTURES, "fill", "20260105-120000-quick"),
              metadata("20260105-120000-quick", dict(compared, **fill),
                       pairs=[["series", "series-region-off"]], fill=list(fill)), rows)


if __name__ == "__main__":
    main()
