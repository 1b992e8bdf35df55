"""The run's plots, one function each; every one draws from Points (sizing()
from a sizing.model() result).

Each function draws one figure for one clock (values of two clocks never
share an axis) and returns its name; it raises figures.Skip when its data
is absent, and names in a note under the figure each configuration that
has no data in it. make_all() draws every plot the run has data for.
"""
import functools
import textwrap
import traceback

import matplotlib.lines as mlines
import matplotlib.patches as mpatches

import figures
import labels
import sizing as sizing_model
import style
from figures import Skip
from points import xnum

MEM_METRICS = [("vmalloc_bytes", "vmalloc"), ("memfree_bytes", "drop in MemFree"),
               ("slab_bytes", "slab"), ("packs", "JIT packs")]
MEM_CLASSES = ["small", "medium", "large"]
TLB_METRICS = ["tlbi", "dsb", "isb", "dc", "ic", "dmb", "ipi"]
X_LABELS = {"straight": "program size (BPF instructions)",
            "branchy": "program size (BPF instructions)",
            "subprogs": "number of subprograms"}
MIB = 1024 * 1024


class Plotter:
    def __init__(self, run, points, outdir):
        self.run = run
        self.points = points
        self.outdir = outdir
        self.styles = style.styles(run.configs)

    # helpers

    def handle(self, config, bar=False):
        s = self.styles[config]
        if bar:
            return mpatches.Patch(label=config, **s.bar())
        return mlines.Line2D([], [], label=config, **s.line())

    def note(self, clock, shown):
        """'no data: X (boot failed: ...)' for configurations absent from a figure."""
        parts = []
        for c in self.run.configs:
            if c in shown:
                continue
            why = [b.get("reason") or "boot failed" for b in self.run.failed_boots
                   if b.get("config") == c and b.get("clock") == clock]
            parts.append(f"{c}" + (f" (boot failed: {textwrap.shorten(why[0], 90)})"
                                    if why else ""))
        return ("no data: " + "; ".join(parts)) if parts else ""

    def title(self, what, clock):
        return f"{what}\nrun {self.run.run_id}, clock: {labels.clock_title(clock)}"

    def series(self, key_list, config):
        """(x, Summary) of config along keys with numeric x, sorted by x."""
        out = []
        for k in key_list:
            s = self.points.summary(k, config)
            if s is not None and xnum(k.x) is not None:
                out.append((xnum(k.x), s))
        return sorted(out, key=lambda p: p[0])

    def cases(self, clock, workload, metric, want):
        """Cases of workload with metric under clock that satisfy want(case)."""
        seen = []
        for k in self.points.select(clock=clock, workload=workload, metric=metric):
            if want(k) and k.case not in seen:
                seen.append(k.case)
        return seen

    def unit(self, clock, workload, metric):
        keys = self.points.select(clock=clock, workload=workload, metric=metric)
        return labels.unit(self.points.unit(keys[0]), clock) if keys else ""

    # 1. load latency

    def load_latency(self, clock):
        cases = self.cases(clock, "load", "load_ns", lambda k: xnum(k.x) is not None)
        if not cases:
            raise Skip(f"no load/load_ns samples with a size under clock {clock}")
        unit = self.unit(clock, "load", "load_ns")
        fig, axes = figures.grid(len(cases))
        shown = set()
        for ax, case in zip(axes, cases):
            keys = self.points.select(clock=clock, workload="load", case=case, metric="load_ns")
            for config in self.run.configs:
                pts = self.series(keys, config)
                if not pts:
                    continue
                shown.add(config)
                xs = [p[0] for p in pts]
                s = self.styles[config]
                ax.fill_between(xs, [p[1].p5 for p in pts], [p[1].p95 for p in pts],
                                color=s.colour, alpha=0.18, linewidth=0)
                ax.plot(xs, [p[1].median for p in pts], label=config, **s.line())
            figures.log_x_at(ax, [xnum(k.x) for k in keys])
            figures.log_y(ax)
            ax.set_title(case)
            ax.set_xlabel(X_LABELS.get(case, "x"))
            ax.set_ylabel(f"load latency ({unit})")
        handles = [self.handle(c) for c in self.run.configs if c in shown]
        handles.append(mpatches.Patch(color="#888888", alpha=0.3, label="p5-p95"))
        figures.finish(fig, self.title("BPF_PROG_LOAD latency (median, p5-p95 band)", clock),
                       handles, self.note(clock, shown))
        return self.save(fig, f"load_latency_{clock}")

    # 2. load ratio

    def load_ratio(self, clock, pair=None):
        """Each configuration over the baseline; with pair=(config, reference),
        that configuration over its reference (a pair of metadata "pairs")."""
        cases = self.cases(clock, "load", "load_ns", lambda k: xnum(k.x) is not None)
        if not cases:
            raise Skip(f"no load/load_ns samples with a size under clock {clock}")
        reference = pair[1] if pair else self.run.baseline
        others = [pair[0]] if pair else [c for c in self.run.configs if c != reference]
        fig, axes = figures.grid(len(cases))
        shown = set()
        for ax, case in zip(axes, cases):
            keys = self.points.select(clock=clock, workload="load", case=case, metric="load_ns")
            for i, config in enumerate(others):
                xs, ys, lo, hi = [], [], [], []
                for k in keys:
                    cmp = self.points.compare(k, config, reference)
                    if cmp is None or cmp.ratio is None or xnum(k.x) is None:
                        continue
                    # Dodge the configurations sideways (multiplicatively: log axis).
                    xs.append(xnum(k.x) * (1 + 0.06 * (i - (len(others) - 1) / 2)))
                    ys.append(cmp.ratio)
                    ci = cmp.ratio_ci or (cmp.ratio, cmp.ratio)
                    lo.append(cmp.ratio - ci[0])
                    hi.append(ci[1] - cmp.ratio)
                if not xs:
                    continue
                shown.add(config)
                order = sorted(range(len(xs)), key=xs.__getitem__)
                ax.errorbar([xs[j] for j in order], [ys[j] for j in order],
                            yerr=[[lo[j] for j in order], [hi[j] for j in order]],
                            capsize=3, label=config, **self.styles[config].line())
            ax.axhline(1.0, color="black", linewidth=0.8)
            figures.log_x_at(ax, [xnum(k.x) for k in keys])
            ax.set_title(case)
            ax.set_xlabel(X_LABELS.get(case, "x"))
            ax.set_ylabel(f"load latency / {reference}")
        if not shown:
            figures.close(fig)
            what = f"{pair[0]} and {reference}" if pair else f"baseline {reference}"
            raise Skip(f"no configuration to compare with {what} under clock {clock}")
        handles = [self.handle(c) for c in others if c in shown]
        figures.finish(fig, self.title(f"Load latency ratio to {reference}"
                                       " (median, bootstrap 95% CI)", clock),
                       handles, self.note(clock, shown | {reference}) if not pair else "")
        return self.save(fig, pair_plot_name(pair, clock) if pair else f"load_ratio_{clock}")

    # 3. call cost

    def call_cost(self, clock):
        cases = self.cases(clock, "call", "call_ns", lambda k: True)
        if not cases:
            raise Skip(f"no call/call_ns samples under clock {clock}")
        unit = self.unit(clock, "call", "call_ns")
        fig, axes = figures.grid(len(cases), width=2.8, height=2.6)
        shown = set()
        for ax, case in zip(axes, cases):
            keys = self.points.select(clock=clock, workload="call", case=case, metric="call_ns")
            self.bars(ax, keys, shown, annotate_delta=True)
            ax.set_title(case)
            ax.set_xticks([])
            ax.set_ylabel(f"per call ({unit})")
        handles = [self.handle(c, bar=True) for c in self.run.configs if c in shown]
        figures.finish(fig, self.title("Cost per call (median, p5-p95 whiskers;"
                                       f" labels: difference to {self.run.baseline})", clock),
                       handles, self.note(clock, shown))
        return self.save(fig, f"call_cost_{clock}")

    def bars(self, ax, keys, shown, annotate_delta=False):
        """One bar per configuration for each key (a group), whiskers p5-p95."""
        n = len(self.run.configs)
        width = 0.8 / n
        for g, key in enumerate(keys):
            for i, config in enumerate(self.run.configs):
                s = self.points.summary(key, config)
                if s is None:
                    continue
                shown.add(config)
                x = g + (i - (n - 1) / 2) * width
                ax.bar(x, s.median, width, yerr=[[s.median - s.p5], [s.p95 - s.median]],
                       capsize=2, error_kw={"elinewidth": 0.8}, **self.styles[config].bar())
                cmp = self.points.compare(key, config) if annotate_delta else None
                if cmp is not None:
                    ax.annotate(labels.delta(cmp.delta), (x, max(s.p95, s.median)),
                                xytext=(0, 2), textcoords="offset points", ha="center",
                                va="bottom", fontsize=7)
        ax.margins(y=0.12)

    # 4. memory

    def memory(self, clock):
        metrics = [(m, name) for m, name in MEM_METRICS
                   if self.points.select(clock=clock, workload="mem", metric=m)]
        if not metrics:
            raise Skip(f"no mem samples under clock {clock}")
        present = {k.case for k in self.points.select(clock=clock, workload="mem")}
        classes = [c for c in MEM_CLASSES if c in present]
        classes += sorted(c for c in present if not c.endswith("-unloaded") and c not in classes)
        fig, axes = figures.grid(len(metrics) * len(classes), width=3.0, height=2.4,
                                 ncols=len(classes))
        shown, unloaded_shown = set(), False
        for r, (metric, name) in enumerate(metrics):
            scale, unit = (MIB, "MiB") if metric.endswith("_bytes") else (1, "count")
            for c, cls in enumerate(classes):
                ax = axes[r * len(classes) + c]
                keys = self.points.select(clock=clock, workload="mem", case=cls, metric=metric)
                after = self.points.select(clock=clock, workload="mem", case=f"{cls}-unloaded",
                                           metric=metric)
                for config in self.run.configs:
                    s = self.styles[config]
                    pts = self.series(keys, config)
                    if pts:
                        shown.add(config)
                        ax.plot([p[0] for p in pts], [p[1].median / scale for p in pts],
                                **s.line())
                    gone = self.series(after, config)
                    if gone:
                        unloaded_shown = True
                        ax.plot([p[0] for p in gone], [p[1].median / scale for p in gone],
                                linestyle="none", marker=s.marker, markersize=8,
                                markerfacecolor="none", markeredgecolor=s.colour)
                if metric.endswith("_bytes"):
                    per = per_program(self, keys, metric)
                    if per:
                        ax.text(0.02, 0.97, per, transform=ax.transAxes, va="top",
                                ha="left", fontsize=6)
                figures.log_x_at(ax, [xnum(k.x) for k in keys + after if xnum(k.x)])
                ax.set_title(f"{name}: {cls} programs")
                ax.set_xlabel("programs loaded")
                ax.set_ylabel(f"{name} ({unit})")
        handles = [self.handle(c) for c in self.run.configs if c in shown]
        if unloaded_shown:
            handles.append(mlines.Line2D([], [], linestyle="none", marker="o", markersize=8,
                                         markerfacecolor="none", markeredgecolor="#444444",
                                         label="after unloading them all"))
        figures.finish(fig, self.title("JIT memory against programs loaded (by program size"
                                       " class)", clock), handles, self.note(clock, shown))
        return self.save(fig, self.per_clock_name("memory", "mem", clock))

    # 5. TLB and cache maintenance

    def tlb(self, clock):
        metrics = [m for m in TLB_METRICS if self.points.select(clock=clock, workload="tlb",
                                                               metric=m)]
        if not metrics:
            raise Skip(f"no tlb samples with {'/'.join(TLB_METRICS)} under clock {clock}")
        fig, axes = figures.grid(len(metrics), width=3.6, height=2.8, ncols=3)
        shown = set()
        for ax, metric in zip(axes, metrics):
            keys = self.points.select(clock=clock, workload="tlb", metric=metric)
            self.bars(ax, keys, shown)
            if span(self.points, keys, self.run.configs) > 100:
                # A new pack's TLBIs (~1,500) beside a load's (~5): log, with 0 kept.
                ax.set_yscale("symlog", linthresh=1)
            multi = {k.case for k in keys if sum(1 for j in keys if j.case == k.case) > 1}
            ax.set_xticks(range(len(keys)))
            ax.set_xticklabels([k.case + (f"\nx={k.x}" if k.case in multi else "") for k in keys],
                               rotation=25, ha="right", fontsize=7)
            ax.set_title(metric.upper() if metric != "ipi" else "IPIs")
            ax.set_ylabel("per operation (count)" if ax.get_yscale() == "linear"
                          else "per operation (count, log)")
        handles = [self.handle(c, bar=True) for c in self.run.configs if c in shown]
        figures.finish(fig, self.title("Maintenance instructions per operation (median,"
                                       " p5-p95)", clock), handles, self.note(clock, shown))
        return self.save(fig, self.per_clock_name("tlb", "tlb", clock))

    # 6. real programs

    def real_programs(self, clock):
        keys = [k for k in self.points.select(clock=clock, workload="load", metric="load_ns")
                if k.case.startswith("real:")]
        if not keys:
            raise Skip(f"no real:* load samples under clock {clock}")
        unit = self.unit(clock, "load", "load_ns")
        others = [c for c in self.run.configs if c != self.run.baseline]
        has_ratio = any(self.points.compare(k, c) for k in keys for c in others)
        width = max(6.0, 0.7 * len(keys) * max(1, len(self.run.configs)) / 2 + 2)
        fig, axes = figures.grid(2 if has_ratio else 1, width=width, height=2.8, ncols=1)
        shown = set()
        ax = axes[0]
        self.bars(ax, keys, shown)
        figures.log_y(ax)
        ax.set_xlim(-0.5, len(keys) - 0.5)
        ax.set_ylabel(f"load latency ({unit})")
        ticks = [k.case[len("real:"):] for k in keys]
        ax.set_xticks(range(len(keys)))
        ax.set_xticklabels(ticks, rotation=20, ha="right")
        if has_ratio:
            ax = axes[1]
            for i, config in enumerate(others):
                xs, ys, lo, hi = [], [], [], []
                for g, k in enumerate(keys):
                    cmp = self.points.compare(k, config)
                    if cmp is None or cmp.ratio is None:
                        continue
                    ci = cmp.ratio_ci or (cmp.ratio, cmp.ratio)
                    xs.append(g + (i - (len(others) - 1) / 2) * 0.15)
                    ys.append(cmp.ratio)
                    lo.append(cmp.ratio - ci[0])
                    hi.append(ci[1] - cmp.ratio)
                if xs:
                    s = self.styles[config]
                    ax.errorbar(xs, ys, yerr=[lo, hi], capsize=3, linestyle="none",
                                marker=s.marker, color=s.colour, markersize=5)
            ax.axhline(1.0, color="black", linewidth=0.8)
            ax.set_xlim(-0.5, len(keys) - 0.5)
            ax.set_xticks(range(len(keys)))
            ax.set_xticklabels(ticks, rotation=20, ha="right")
            ax.set_ylabel(f"ratio to {self.run.baseline}")
        handles = [self.handle(c, bar=True) for c in self.run.configs if c in shown]
        figures.finish(fig, self.title("Load latency of real programs (median, p5-p95;"
                                       " ratio with bootstrap 95% CI)", clock),
                       handles, self.note(clock, shown))
        return self.save(fig, f"real_programs_{clock}")

    # naming and saving

    def per_clock_name(self, name, workload, clock):
        """name for the first clock with this workload's data, name_<clock> for others."""
        clocks = [c for c in self.run.clocks if self.points.select(clock=c, workload=workload)]
        return name if clocks and clocks[0] == clock else f"{name}_{clock}"

    def save(self, fig, name):
        figures.save(fig, self.outdir, name)
        return name


def sizing(result, outdir):
    """plots/sizing: objects per class against region size, log-log, from a
    sizing.model() result: measured as markers, the model as lines, each
    class's checked (not fitted) point ringed, the extrapolation shaded. One look
    per class (style.Style by position), not per configuration: each size
    is a configuration of its own."""
    measured = sizing_model.measured_series(result)
    series = sizing_model.series_names(result)
    series += [name for name in measured if name not in series]
    xs = sorted(set(result["sizes_mib"]) | set(sizing_model.EXTRAPOLATE_MIB))
    model = sizing_model.model_series(result, [x for x in xs if x >= min(result["sizes_mib"])])
    checked = sizing_model.checked_sizes(result)
    fig, (ax,) = figures.grid(1, width=6.6, height=4.6)
    handles = []
    for i, name in enumerate(series):
        s = style.Style(i)
        pts = sorted((x, y) for x, y in measured.get(name, []) if y)
        if pts:
            ax.plot([x for x, _ in pts], [y for _, y in pts], linestyle="none",
                    marker=s.marker, color=s.colour, markersize=6)
        line = [(x, y) for x, y in model.get(name, []) if y]
        if line:
            ax.plot([x for x, _ in line], [y for _, y in line], color=s.colour,
                    linestyle=s.linestyle, linewidth=1.4)
        ringed = [(x, y) for x, y in pts if x == checked.get(name)]
        if ringed:
            ax.plot([x for x, _ in ringed], [y for _, y in ringed], linestyle="none", marker="o",
                    markersize=13, markerfacecolor="none", markeredgecolor="black",
                    markeredgewidth=1.2)
        handles.append(mlines.Line2D([], [], color=s.colour, marker=s.marker,
                                     linestyle=s.linestyle, markersize=6, linewidth=1.4,
                                     label=name))
    ax.axvspan(max(result["sizes_mib"]), max(xs), color="#888888", alpha=0.08, linewidth=0)
    ax.axvline(sizing_model.DEFAULT_MIB, color="black", linestyle=":", linewidth=1.0)
    handles.append(mlines.Line2D([], [], color="black", linestyle=":", linewidth=1.0,
                                 label=f"default: {sizing_model.DEFAULT_MIB} MiB"))
    figures.log_x_at(ax, xs, most=12)
    figures.log_y(ax)
    ax.set_xlabel("BPF JIT region size (MiB)")
    ax.set_ylabel("objects loaded before the first failure")
    at = sorted(set(checked.values()))
    if at:
        handles.append(mlines.Line2D([], [], linestyle="none", marker="o", markersize=11,
                                     markerfacecolor="none", markeredgecolor="black",
                                     label=f"checked at {labels.mib(at[0])} (not fitted)"
                                     if len(at) == 1 else "checked (not fitted)"))
    note = ("markers: measured; lines: model n_c x packs(S), packs(S) ="
            f" {result['geometry']['packs']}; shaded: extrapolated (4 KiB pages, one NUMA node)")
    figures.finish(fig, "BPF JIT region sizing: objects per class against region size\n"
                   f"run {result['run_id']}; {sizing_model.checked_line(result)}", handles, note)
    figures.save(fig, outdir, "sizing")
    return "sizing"


def per_program(plotter, keys, metric):
    """'per program at N:' and each configuration's median / N at its
    largest count N, one line each (N named per line where it differs);
    '' without data."""
    found = []
    for config in plotter.run.configs:
        pts = plotter.series(keys, config)
        if pts and pts[-1][0] > 0:
            found.append((config, pts[-1][0], pts[-1][1].median / pts[-1][0]))
    if not found:
        return ""
    first = found[0][1]
    lines = [f"{c}: {labels.number(round(b), 'bytes')} B"
             + ("" if n == first else f" (at {labels.number(n, 'count')})")
             for c, n, b in found]
    return f"per program at {labels.number(first, 'count')}:\n" + "\n".join(lines)


def span(points, keys, configs):
    """Largest median over the smallest positive one among keys' configurations
    (1 when there is nothing to compare)."""
    medians = [s.median for k in keys for c in configs
               for s in [points.summary(k, c)] if s is not None and s.median > 0]
    return max(medians) / min(medians) if medians else 1


def pair_plot_name(pair, clock):
    """load_ratio_<config>_over_<reference>_<clock>, for a pair of metadata "pairs"."""
    return f"load_ratio_{pair[0]}_over_{pair[1]}_{clock}"


def make_all(run, points, outdir):
    """Draw every plot; return (names written, [(name, reason skipped)], [(name, error)]).

    A plot that breaks (a bug, or data no plot foresaw) is reported as an
    error and the others are still drawn.
    """
    p = Plotter(run, points, outdir)
    plan = []
    for clock in run.clocks:
        plan += [(f"load_latency_{clock}", p.load_latency, clock),
                 (f"load_ratio_{clock}", p.load_ratio, clock),
                 (f"call_cost_{clock}", p.call_cost, clock),
                 (f"real_programs_{clock}", p.real_programs, clock)]
        plan += [(pair_plot_name(pair, clock), functools.partial(p.load_ratio, pair=pair), clock)
                 for pair in run.pairs]
    for name, fn, workload in (("memory", p.memory, "mem"), ("tlb", p.tlb, "tlb")):
        clocks = [c for c in run.clocks if points.select(clock=c, workload=workload)]
        if not clocks:
            plan.append((name, None, f"no {workload} samples under any clock"))
        plan += [(p.per_clock_name(name, workload, c), fn, c) for c in clocks]
    written, skipped, errors = [], [], []
    for name, fn, arg in plan:
        if fn is None:
            skipped.append((name, arg))
            continue
        try:
            written.append(fn(arg))
        except Skip as e:
            skipped.append((name, str(e)))
        except Exception:  # noqa: BLE001 - one broken plot must not cost the rest
            figures.close_all()
            errors.append((name, traceback.format_exc()))
    return written, skipped, errors
