"""The figures of the talk and the paper, as LaTeX, from the committed runs paper/runs names.

paper/runs gives one run per role (ROLE PATH, PATH from the top):

  load      a bench run with icount load samples of vanilla, series, series-wp-off
  calls     a bench run with icount call and tlb samples of the same three
  region    a bench run with icount load samples of series and series-region-off
  sizing    a bench run with fill samples (the sizing model)
  conc      a bench run with conc samples of series and series-pool-32k
  security  a results/security run (tests/security.py)
  layout    a results/layout run (benchmarks/layout)
  selftests a results/selftests run of the whole suite (make selftests)

generate() writes into OUT: numbers.tex (one \\newcommand per figure),
tab-load.tex, tab-security.tex, tab-calls.tex, tab-tlb.tex, tab-sizing.tex,
fig-load.pdf, fig-layout.pdf and fig-sizing.pdf (the sizing run's own
plot). Every table and figure names its run.
Nothing here is typed by hand but the kernel's geometry (sizing.py) and
the names of things.
"""
import csv
import os
import re
import shutil

import claims
import labels
import runs as runs_mod
import sizing

# The roles of paper/runs; a bench run's role needs a workload and configurations
# (load_bench checks them), the others read their own files (security_figures,
# layout_figures, selftests_figures say what is missing).
BENCH_ROLES = {
    "load": ("load", ("vanilla", "series", "series-wp-off")),
    "calls": ("call", ("vanilla", "series", "series-wp-off")),
    "region": ("load", ("series", "series-region-off")),
    "sizing": ("fill", ()),
    "conc": ("conc", ("series", "series-pool-32k")),
}
ROLES = tuple(BENCH_ROLES) + ("security", "layout", "selftests")
DIGITS = ("Zero", "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine")


class PaperError(Exception):
    """A run list or a run the paper cannot use; the message names what is missing."""


def read_runs(path, top):
    """{role: absolute run directory} from paper/runs, every role present and usable."""
    if not os.path.isfile(path):
        raise PaperError(f"no run list {path}")
    found = {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if not line.strip() or line.startswith("#"):
                continue
            fields = line.split()
            if len(fields) != 2 or fields[0] not in ROLES:
                raise PaperError(f"{path}:{n}: wants ROLE PATH with ROLE one of"
                                 f" {', '.join(ROLES)}, got {line.strip()!r}")
            found[fields[0]] = os.path.join(top, fields[1])
    missing = [r for r in ROLES if r not in found]
    if missing:
        raise PaperError(f"{path}: no run for {', '.join(missing)}")
    for role, where in found.items():
        if not os.path.isdir(where):
            raise PaperError(f"{path}: {role}: no run {os.path.relpath(where, top)}")
    return found


def load_bench(role, where):
    """The bench run of a role, refusing one that lacks the role's workload or configurations."""
    workload, configs = BENCH_ROLES[role]
    try:
        run = runs_mod.load(where)
    except runs_mod.RunError as e:
        raise PaperError(f"{role}: {e}") from e
    have = {s.workload for s in run.measured}
    if workload not in have:
        raise PaperError(f"{role}: run {run.run_id} has no {workload} samples (it has:"
                         f" {', '.join(sorted(have)) or 'none'})")
    lacking = [c for c in configs if c not in run.configs]
    if lacking:
        raise PaperError(f"{role}: run {run.run_id} lacks configuration(s) {', '.join(lacking)}"
                         f" (it has: {', '.join(run.configs)})")
    return run


def macro_name(*parts):
    """A LaTeX macro name from words and numbers: ('load', 'straight', '512') ->
    loadStraightFiveOneTwo (digits spelled, one word each; other characters dropped)."""
    out = []
    for p in parts:
        for word in re.findall(r"[A-Za-z]+|\d", str(p)):
            out.append(DIGITS[int(word)] if word.isdigit() else word[0].upper() + word[1:])
    name = "".join(out)
    return name[0].lower() + name[1:]


class Macros:
    def __init__(self):
        self.items = {}

    def add(self, value, *parts):
        name = macro_name(*parts)
        if name in self.items:
            raise ValueError(f"macro \\{name} twice")
        self.items[name] = str(value)

    def tex(self):
        return "".join(f"\\newcommand{{\\{k}}}{{{tex_text(v)}}}\n" for k, v in self.items.items())


def tex_text(text):
    return (str(text).replace("\\", "\\textbackslash{}").replace("_", "\\_").replace("%", "\\%")
            .replace("&", "\\&").replace("#", "\\#"))


def thousands(v):
    return labels.count(v, whole=True).replace(",", "{,}")


def point_parts(key):
    if key.case.startswith("real:"):
        return ("real", key.case[len("real:"):])
    if key.case == "subprogs":
        return ("subprogs", key.x)
    return (key.case, key.x)


def load_figures(run, m):
    """Load latency: series over series-wp-off and over vanilla, every point."""
    import points as points_mod
    pts = points_mod.Points(run)
    keys = pts.select(clock="icount", workload="load", metric="load_ns")
    rows = []
    worst, widest = {}, {}
    for k in keys:
        row = [claims.point_name(k)]
        for config, ref, tag in (("series", "series-wp-off", "Wp"), ("series", "vanilla", "All")):
            cmp = pts.compare(k, config, ref)
            m.add(labels.ratio(cmp.ratio), "load", tag, *point_parts(k))
            lo, hi = cmp.ratio_ci
            m.add(labels.ratio(lo), "load", tag, *point_parts(k), "lo")
            m.add(labels.ratio(hi), "load", tag, *point_parts(k), "hi")
            row += [labels.ratio(cmp.ratio), f"[{labels.ratio(lo)}, {labels.ratio(hi)}]"]
            if tag not in worst or cmp.ratio > worst[tag][1]:
                worst[tag] = (claims.point_name(k), cmp.ratio)
            if tag not in widest or hi > widest[tag][1]:
                widest[tag] = (claims.point_name(k), hi)
        rows.append((k, row))
    for tag, (where, r) in worst.items():
        m.add(labels.ratio(r), "load", tag, "max")
        m.add(where, "load", tag, "max", "at")
    for tag, (where, hi) in widest.items():
        m.add(labels.ratio(hi), "load", tag, "hi", "max")
        m.add(where, "load", tag, "hi", "max", "at")
    n = pts.summary(keys[0], "series").n
    m.add(n, "load", "rounds")
    m.add(len(keys), "load", "points")
    return pts, rows


def load_table(run, rows):
    lines = ["% generated by analysis/paper from " + run.run_id,
             "\\begin{tabular}{lrrrr}", "\\toprule",
             " & \\multicolumn{2}{c}{series / wp off} & \\multicolumn{2}{c}{series / 6.12} \\\\",
             "program & ratio & 95\\% CI & ratio & 95\\% CI \\\\", "\\midrule"]
    for _, row in rows:
        lines.append(" & ".join(tex_text(c) for c in row) + " \\\\")
    lines += ["\\bottomrule", "\\end{tabular}", ""]
    return "\n".join(lines)


def load_plot(run, pts, rows, path):
    fig, ax = subplots(3.4, 2.6)
    names = [claims.point_name(k) for k, _ in rows]
    for i, (config, ref, label) in enumerate((("series", "series-wp-off", "series / wp off"),
                                              ("series", "vanilla", "series / 6.12"))):
        ys, lo, hi = [], [], []
        for k, _ in rows:
            cmp = pts.compare(k, config, ref)
            ys.append(cmp.ratio)
            lo.append(cmp.ratio - cmp.ratio_ci[0])
            hi.append(cmp.ratio_ci[1] - cmp.ratio)
        xs = [j + (i - 0.5) * 0.3 for j in range(len(rows))]
        ax.errorbar(xs, ys, yerr=[lo, hi], fmt="o", ms=3, capsize=2, label=label)
    ax.axhline(1.0, color="grey", lw=0.6)
    ax.axhline(1.05, color="grey", lw=0.6, ls=":")
    ax.set_xticks(range(len(rows)))
    ax.set_xticklabels(names, rotation=70, ha="right", fontsize=6)
    ax.set_ylabel("load latency ratio (icount)", fontsize=7)
    ax.tick_params(axis="y", labelsize=6)
    ax.legend(fontsize=6)
    ax.set_title(f"run {run.run_id}, median, bootstrap 95% CI", fontsize=7)
    save_pdf(fig, path)


CALLS = ("dispatcher", "bpf_loop", "for_each", "tail_call", "bpf2bpf", "fentry", "fexit",
         "freplace")
TLB_POINTS = (("load_existing_pack", "64", "64 insns, a pack's"),
              ("load_existing_pack", "4096", "4096 insns, a pack's"),
              ("load_new_pack", "4096", "opening a pack"))


def call_figures(run, m):
    """Per-call costs and TLB maintenance; returns the two tables."""
    import points as points_mod
    pts = points_mod.Points(run)
    calls = [f"% generated by analysis/paper from {run.run_id}", "\\begin{tabular}{lrr}",
             "\\toprule", "call & 6.12 & series \\\\", "\\midrule"]
    for case in CALLS:
        keys = pts.select(clock="icount", workload="call", case=case, metric="call_ns")
        if not keys:
            raise PaperError(f"calls: run {run.run_id} has no icount call_ns of {case}")
        cells = []
        for config, tag in (("vanilla", "Vanilla"), ("series", "Series")):
            v = labels.number(pts.summary(keys[0], config).median)
            m.add(v, "call", case, tag)
            cells.append(v)
        calls.append(" & ".join([tex_text(case)] + cells) + " \\\\")
        if case == "dispatcher":
            delta = (pts.summary(keys[0], "series").median
                     - pts.summary(keys[0], "vanilla").median)
            m.add(labels.number(delta), "call", case, "delta")
    calls += ["\\bottomrule", "\\end{tabular}", ""]
    tlb = [f"% generated by analysis/paper from {run.run_id}", "\\begin{tabular}{lrrrrrr}",
           "\\toprule", " & \\multicolumn{2}{c}{TLBI} & \\multicolumn{2}{c}{DSB}"
           " & \\multicolumn{2}{c}{ISB} \\\\",
           "load & off & on & off & on & off & on \\\\", "\\midrule"]
    for case, x, label in TLB_POINTS:
        cells = [label]
        for metric in ("tlbi", "dsb", "isb"):
            keys = [k for k in pts.select(clock="icount", workload="tlb", case=case, metric=metric)
                    if k.x == x]
            if not keys:
                raise PaperError(f"calls: run {run.run_id} has no tlb {metric} of {case} {x}")
            for config, tag in (("series-wp-off", "WpOff"), ("series", "Series")):
                v = labels.number(pts.summary(keys[0], config).median)
                m.add(v, "tlb", case, x, metric, tag)
                cells.append(v)
        tlb.append(" & ".join(cells) + " \\\\")
    tlb += ["\\bottomrule", "\\end{tabular}", ""]
    return "\n".join(calls), "\n".join(tlb)


def region_figures(run, m):
    """The region on over off: the range of medians, the widest interval, how many
    intervals exclude 1; and, without KASLR, fentry and fexit per call."""
    import points as points_mod
    pts = points_mod.Points(run)
    keys = pts.select(clock="icount", workload="load", metric="load_ns")
    cmps = [pts.compare(k, "series", "series-region-off") for k in keys]
    m.add(labels.ratio(min(c.ratio for c in cmps)), "region", "ratio", "min")
    m.add(labels.ratio(max(c.ratio for c in cmps)), "region", "ratio", "max")
    m.add(labels.ratio(min(c.ratio_ci[0] for c in cmps)), "region", "ci", "min")
    m.add(labels.ratio(max(c.ratio_ci[1] for c in cmps)), "region", "ci", "max")
    # At the precision the tables print them, so that the text says what they show.
    shown = [(float(labels.ratio(c.ratio_ci[0])), float(labels.ratio(c.ratio_ci[1])))
             for c in cmps]
    m.add(sum(1 for lo, hi in shown if not lo <= 1 <= hi), "region", "ci", "excluding")
    m.add(sum(1 for lo, _ in shown if lo > 1), "region", "ci", "excluding", "above")
    m.add(len(keys), "region", "points")
    m.add(pts.summary(keys[0], "series").n, "region", "rounds")
    for on, off, tag in (("series-nokaslr", "series-nokaslr-region-off", "Nokaslr"),):
        if on not in run.configs or off not in run.configs:
            raise PaperError(f"region: run {run.run_id} lacks {on} or {off}")
        for case in ("fentry", "fexit"):
            k = pts.select(clock="icount", workload="call", case=case, metric="call_ns")[0]
            m.add(labels.number(pts.summary(k, on).median), "region", tag, case, "on")
            m.add(labels.number(pts.summary(k, off).median), "region", tag, case, "off")


SIZING_CLASSES = (("p50", "programs $\\le$ 500 B"), ("p75", "programs $\\le$ 2 KiB"),
                  ("mix after churn", "churned mix"), ("trampoline", "fentry trampolines"),
                  ("struct_ops", "struct\\_ops maps"))


def sizing_figures(run, m):
    """The sizing model's predictions and what analysis/tune answers for the default host;
    returns the sizing table."""
    import tune
    r = sizing.model(run)
    layout = sizing.Layout(**r["layout"])
    sizes = (128, 1024)
    table = [f"% generated by analysis/paper from {run.run_id}", "\\begin{tabular}{lrr}",
             "\\toprule", "bpf\\_jit\\_region= & 128M & 1G \\\\", "\\midrule"]
    rows = {"packs": ["packs (for programs)"]}
    for size in sizes:
        packs = sizing.packs(size * sizing.MIB, layout=layout)
        prog = sizing.program_packs(size * sizing.MIB, layout=layout)
        m.add(packs, "sizing", size, "packs")
        m.add(prog, "sizing", size, "program", "packs")
        rows["packs"].append(f"{packs} ({prog})")
        objs = sizing.predict(r["fit"], size, layout=layout)
        for cls, label in SIZING_CLASSES:
            if cls in objs:
                m.add(thousands(objs[cls]), "sizing", size, cls)
                rows.setdefault(cls, [label]).append(thousands(objs[cls]))
    for row in rows.values():
        table.append(" & ".join(row) + " \\\\")
    table += ["\\bottomrule", "\\end{tabular}", ""]
    m.add(labels.size_bytes(sizing.page_tables(128 * sizing.MIB, 4096)["bytes"])
          .replace(" ", "~"), "sizing", 128, "page", "tables")
    answer = tune.advise(r)
    m.add(thousands(answer["programs"]), "tune", "programs")
    m.add(answer["region_mib"], "tune", "region", "mib")
    m.add(answer["packs_needed"], "tune", "packs", "needed")
    m.add(answer["all_packs"], "tune", "packs")
    m.add(f"{answer['headroom']:g}", "tune", "headroom")
    for page, v in answer["page_tables"].items():
        m.add(labels.size_bytes(v).replace(" ", "~"), "tune", "page", "tables", page)
    checked = [c for c in r["check"] if c["relative_error"] is not None]
    worst = max(checked, key=lambda c: abs(c["relative_error"]))
    m.add(f"{abs(worst['relative_error']) * 100:.2f}", "sizing", "error")
    m.add(labels.mib(min(r["sizes_mib"])).replace(" ", "~"), "sizing", "smallest")
    m.add(labels.mib(max(r["sizes_mib"])).replace(" ", "~"), "sizing", "largest")
    return "\n".join(table)


def conc_figures(run, m):
    import conc
    r = conc.model(run)
    most = max(x["loaders"] for x in r["rows"])
    for config, tag in (("series", "Pool"), ("series-pool-32k", "Small")):
        for cpus in (2, 4):
            misses = [x["pool_misses"] for x in r["rows"] if x["config"] == config
                      and x["loaders"] == most and x["cpus"] == cpus
                      and x["pool_misses"] is not None]
            if not misses:
                raise PaperError(f"conc: run {run.run_id} has no pool misses of {config}"
                                 f" with {most} loaders on {cpus} CPUs")
            m.add(thousands(misses[0]), "conc", "misses", tag, cpus)
    m.add(most, "conc", "loaders")


def read_tsv(path):
    with open(path) as f:
        return list(csv.DictReader(f, delimiter="\t"))


def security_figures(where, m):
    path = os.path.join(where, "matrix.tsv")
    if not os.path.isfile(path):
        raise PaperError(f"security: {where} has no matrix.tsv")
    rows = read_tsv(path)
    by_mode = {}
    for r in rows:
        if r["attack"] == "(every attack)":
            continue
        by_mode.setdefault(r["mode"], []).append(r)
    for mode in ("enforce", "warn", "off"):
        if mode not in by_mode:
            raise PaperError(f"security: {path} has no row in mode {mode}")
        got = by_mode[mode]
        tampered = sum(1 for r in got if r["returned"] == "0x4321")
        m.add(len(got), "attacks", mode)
        m.add(tampered, "attacks", mode, "tampered")
    m.add(len({r["attack"] for r in rows if r["attack"] != "(every attack)"}), "attacks", "kinds")
    return rows


CHURN = re.compile(r"^(\d+) loads; seals (\d+), verifications (\d+), digest checks (\d+),"
                   r" instructions sealed (\d+), checked (\d+)")
INJECTION = re.compile(r"(\d+) injection points, (\d+) loads failed, (\d+) absorbed")


def check_figures(where, m):
    """Churn and fault injection, from the security run's checks.tsv."""
    path = os.path.join(where, "checks.tsv")
    every = read_tsv(path) if os.path.isfile(path) else []
    failed = [f"{r['check']} ({r['mode']})" for r in every if r["result"] != "passed"]
    if failed:
        raise PaperError(f"security: {path}: not passed: {', '.join(failed)}")
    # Churn, fault injection and the kCFI switch in enforce mode (the kCFI switch
    # also runs in the other modes: it passed there too, checked above).
    rows = {r["check"]: r for r in every if r["mode"] == "enforce"}
    for need in ("test_jit_wp_churn", "test_jit_wp_fail", "test_cfi_trap"):
        if need not in rows:
            raise PaperError(f"security: {path} has no {need} in enforce mode")
    churn = CHURN.match(rows["test_jit_wp_churn"]["summary"])
    if not churn:
        raise PaperError(f"security: {path}: test_jit_wp_churn's summary is not the churn line")
    for value, name in zip(churn.groups(), ("loads", "seals", "verifications", "digests",
                                            "insn seals", "insn checks")):
        m.add(thousands(int(value)), "churn", name)
    points = [tuple(int(x) for x in g) for g in INJECTION.findall(rows["test_jit_wp_fail"]["summary"])]
    m.add(sum(p[0] for p in points), "inject", "points")
    m.add(sum(p[1] for p in points), "inject", "failed")
    m.add(sum(p[2] for p in points), "inject", "absorbed")
    m.add(rows["test_cfi_trap"]["summary"].count("CFI failure"), "cfi", "traps")
    m.add(len({r["mode"] for r in every if r["check"] == "test_cfi_trap"}), "cfi", "modes")


def selftests_figures(where, m):
    """Outcomes per runner of a selftests run (its selftests.tsv)."""
    path = os.path.join(where, "selftests.tsv")
    if not os.path.isfile(path):
        raise PaperError(f"selftests: {where} has no selftests.tsv")
    counts = {}
    for r in read_tsv(path):
        counts[(r["runner"], r["status"])] = counts.get((r["runner"], r["status"]), 0) + 1
    for runner in ("test_progs", "test_verifier", "test_bpf"):
        for status in ("PASS", "SKIP", "FAIL"):
            m.add(counts.get((runner, status), 0), "selftests", runner, status.lower())


def security_table(where, rows):
    run_id = os.path.basename(os.path.normpath(where))
    cells = {}
    order = []
    for r in rows:
        if r["attack"] == "(every attack)":
            continue
        key = (r["attack"], r["victim"])
        if key not in order:
            order.append(key)
        cells[(key, r["mode"])] = r
    lines = [f"% generated by analysis/paper from {run_id}",
             "\\begin{tabular}{llll}", "\\toprule",
             "attack & enforce & warn & off (region alone) \\\\", "\\midrule"]
    seen = set()
    for attack, victim in order:
        if attack in seen:   # the two-function victim fares as the one-function one
            same = all(short(cells.get(((attack, victim), mo))) ==
                       short(cells.get(((attack, "one-function"), mo)))
                       for mo in ("enforce", "warn", "off"))
            if same:
                continue
        seen.add(attack)
        name = attack if victim in ("one-function", "live", "none") else f"{attack} ({victim})"
        lines.append(" & ".join([tex_text(name)] + [tex_text(short(cells.get(((attack, victim), mo))))
                                                   for mo in ("enforce", "warn", "off")]) + " \\\\")
    lines += ["\\bottomrule", "\\end{tabular}", ""]
    return "\n".join(lines)


def short(r):
    """One cell of the security table: what became of the attack."""
    if r is None:
        return "not run"
    if r["returned"] == "0x4321":
        return "tampered"
    if r["load"].startswith("failed"):
        return "load refused"
    gadget = r["gadget"]
    reported = r["console"].startswith("reported")
    if gadget.startswith("refused"):
        return "refused"
    if "faulted" in gadget:
        return "write faults"
    if gadget.startswith("allowed"):
        return "allowed, reported" if reported else "allowed"
    if reported:
        return "reported"
    return "no effect"


def layout_figures(where, m):
    """The region's place from markers.txt (kernel_page_tables) and region.txt."""
    markers = read_markers(os.path.join(where, "markers.txt"))
    need = ("Modules start", "vmalloc() area", "vmalloc() end", "BPF JIT start", "BPF JIT end")
    lacking = [n for n in need if n not in markers]
    if lacking:
        raise PaperError(f"layout: {where}/markers.txt lacks {', '.join(lacking)}")
    region = read_region(os.path.join(where, "region.txt"))
    for k in ("start", "end", "window_start", "window_end", "reserve_bytes"):
        if k not in region:
            raise PaperError(f"layout: {where}/region.txt has no {k}")
    if (region["start"], region["end"]) != (markers["BPF JIT start"], markers["BPF JIT end"]):
        raise PaperError(f"layout: {where}: region.txt and the page-table markers disagree")
    start, end = region["start"], region["end"]
    m.add(labels.mib((end - start) / sizing.MIB).replace(" ", "~"), "layout", "region", "size")
    m.add(labels.mib((region["window_end"] - region["window_start"]) / sizing.MIB)
          .replace(" ", "~"), "layout", "window", "size")
    m.add(labels.mib((start - region["window_start"]) / sizing.MIB).replace(" ", "~"),
          "layout", "region", "offset")
    m.add(f"{start:#x}", "layout", "region", "start")
    m.add(f"{(markers['vmalloc() end'] - markers['vmalloc() area']) / 2 ** 40:.0f}",
          "layout", "vmalloc", "tib")
    return markers, region


MARKER = re.compile(r"^---\[ (.+) \]---$")
RANGE = re.compile(r"^(0x[0-9a-f]+)-(0x[0-9a-f]+)")


def read_markers(path):
    """{marker name: address} from markers.txt: a marker line, then the range line that
    starts at its address (a marker followed by another marker has none)."""
    out, pending = {}, None
    with open(path) as f:
        for line in f:
            line = line.strip()
            mk = MARKER.match(line)
            if mk:
                pending = mk.group(1)
                continue
            rg = RANGE.match(line)
            if rg and pending is not None:
                out.setdefault(pending, int(rg.group(1), 16))
                pending = None
    return out


def read_region(path):
    """/sys/kernel/debug/bpf_jit/region as {key: int}."""
    out = {}
    with open(path) as f:
        for line in f:
            k, _, v = line.partition(":")
            v = v.strip()
            if re.fullmatch(r"0x[0-9a-f]+|\d+", v):
                out[k.strip()] = int(v, 0)
    return out


def layout_plot(where, markers, region, path):
    """Two panels: the vmalloc area and its neighbours (TiB), and the 4 GiB window (MiB)."""
    run_id = os.path.basename(os.path.normpath(where))
    fig, (top, bottom) = subplots(3.4, 2.6, rows=2)
    tib = 2 ** 40
    base = markers["Modules start"]
    spans = [("modules", markers["Modules start"], markers["vmalloc() area"]),
             ("vmalloc", markers["vmalloc() area"], markers["vmalloc() end"]),
             ("BPF JIT window", region["window_start"], region["window_end"])]
    width = (spans[1][2] - base) / tib
    for i, (name, lo, hi) in enumerate(spans):
        # The window is 4 GiB of tens of TiB: drawn at least 1% wide, its address named.
        top.barh(i, max((hi - lo) / tib, width / 100), left=(lo - base) / tib, height=0.6)
        top.annotate(f"{name} at {lo:#x}", (0, i + 0.35), fontsize=5)
    top.set_yticks([])
    top.set_ylim(-0.5, len(spans) + 0.1)
    top.set_xlabel(f"TiB above {base:#x}", fontsize=6)
    top.tick_params(axis="x", labelsize=5)
    top.set_title(f"kernel_page_tables and bpf_jit/region, run {run_id}", fontsize=7)
    mib = sizing.MIB
    w0 = region["window_start"]
    parts = [("window", region["window_start"], region["window_end"]),
             ("region", region["start"], region["end"]),
             ("reserve", region["end"] - region["reserve_bytes"], region["end"])]
    for i, (name, lo, hi) in enumerate(parts):
        bottom.barh(i, (hi - lo) / mib, left=(lo - w0) / mib, height=0.6)
        bottom.annotate(f"{name}: {(hi - lo) / mib:.0f} MiB at +{(lo - w0) / mib:.0f} MiB",
                        ((hi - w0) / mib + 40 if i else 0, i + 0.35 if not i else i - 0.1),
                        fontsize=5)
    bottom.set_yticks([])
    bottom.set_ylim(-0.5, len(parts) + 0.2)
    bottom.set_xlabel(f"MiB above the window's start {w0:#x}", fontsize=6)
    bottom.tick_params(axis="x", labelsize=5)
    save_pdf(fig, path)


def subplots(width, height, rows=1):
    import figures  # matplotlib without a display (analysis/figures.py)
    return figures.plt.subplots(rows, 1, figsize=(width, height))


def save_pdf(fig, path):
    """A reproducible PDF (no creation date)."""
    import figures
    fig.tight_layout()
    fig.savefig(path, metadata={"CreationDate": None})
    figures.close(fig)


def generate(runs_file, top, out):
    """Write numbers.tex, the tables and the plots into out; returns the files written."""
    found = read_runs(runs_file, top)
    m = Macros()
    for role, where in found.items():
        m.add(os.path.basename(os.path.normpath(where)), "run", role)  # escaped by tex()
    load = load_bench("load", found["load"])
    calls = load_bench("calls", found["calls"])
    region = load_bench("region", found["region"])
    fill = load_bench("sizing", found["sizing"])
    conc_run = load_bench("conc", found["conc"])
    pts, rows = load_figures(load, m)
    calls_table, tlb_table = call_figures(calls, m)
    region_figures(region, m)
    sizing_table = sizing_figures(fill, m)
    conc_figures(conc_run, m)
    sec_rows = security_figures(found["security"], m)
    check_figures(found["security"], m)
    selftests_figures(found["selftests"], m)
    markers, region = layout_figures(found["layout"], m)
    os.makedirs(out, exist_ok=True)
    written = []

    def put(name, text):
        path = os.path.join(out, name)
        with open(path, "w") as f:
            f.write(text)
        written.append(path)

    put("numbers.tex", "% generated by analysis/paper from " + os.path.relpath(runs_file, top)
        + "\n" + m.tex())
    put("tab-load.tex", load_table(load, rows))
    put("tab-security.tex", security_table(found["security"], sec_rows))
    put("tab-calls.tex", calls_table)
    put("tab-tlb.tex", tlb_table)
    put("tab-sizing.tex", sizing_table)
    load_plot(load, pts, rows, os.path.join(out, "fig-load.pdf"))
    written.append(os.path.join(out, "fig-load.pdf"))
    sized = os.path.join(found["sizing"], "plots", "sizing.pdf")
    if not os.path.isfile(sized):
        raise PaperError(f"sizing: run {fill.run_id} has no plots/sizing.pdf"
                         f" (analysis/analyze draws it)")
    shutil.copy(sized, os.path.join(out, "fig-sizing.pdf"))
    written.append(os.path.join(out, "fig-sizing.pdf"))
    layout_plot(found["layout"], markers, region, os.path.join(out, "fig-layout.pdf"))
    written.append(os.path.join(out, "fig-layout.pdf"))
    return written, m.items

