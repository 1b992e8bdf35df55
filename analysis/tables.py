"""The summary tables: tables/summary.md, tables/summary.tex and tables/MISSING.md.

One row per point (clock, workload, case, x, metric) with, per
configuration, median [p5, p95] and the number of samples, and for each
configuration but the baseline its ratio of medians to the baseline with a
bootstrap 95% CI (and for per-call costs the difference too). Unknown
workloads and metrics get rows like any other. The rows are built once
(sections()) and written twice, as Markdown and as booktabs LaTeX.
"""
import os

import labels
import missing
from points import PAIRED_CLOCKS

MISSING_CELL = "missing"


def sections(run, points):
    """[(clock, workload, header, rows)]: the table of each clock and workload.

    After the comparisons with the baseline come those of each pair of
    run.pairs (metadata "pairs"): "A / B [95% CI]", and for call "A - B".
    """
    others = [c for c in run.configs if c != run.baseline]
    comparisons = [(c, run.baseline) for c in others] + list(run.pairs)
    out = {}
    for key in points.keys:
        workload_delta = key.workload == "call"
        sec = out.get((key.clock, key.workload))
        if sec is None:
            header = ["case", "x", "metric", "unit"] + list(run.configs)
            header += [f"{c} / {ref} [95% CI]" for c, ref in comparisons]
            if workload_delta:
                header += [f"{c} - {ref} [95% CI]" for c, ref in comparisons]
            if key.clock in PAIRED_CLOCKS:
                header += [f"{c} / {ref} by round [>=95% CI]" for c, ref in comparisons]
            sec = out[(key.clock, key.workload)] = (key.clock, key.workload, header, [])
        row = [key.case, key.x, key.metric, labels.unit(points.unit(key), key.clock)]
        u = points.unit(key)
        for c in run.configs:
            s = points.summary(key, c)
            row.append(MISSING_CELL if s is None else
                       f"{labels.number(s.median, u)} [{labels.number(s.p5, u)},"
                       f" {labels.number(s.p95, u)}] n={s.n}")
        cmps = [(points.compare(key, c, ref), ref) for c, ref in comparisons]
        for cmp, ref in cmps:
            row.append(compare_cell(cmp, "ratio", labels.ratio, key, points, run, ref))
        if workload_delta:
            for cmp, ref in cmps:
                row.append(compare_cell(cmp, "delta", labels.delta, key, points, run, ref))
        if key.clock in PAIRED_CLOCKS:
            row += [paired_cell(points.paired(key, c, ref)) for c, ref in comparisons]
        sec[3].append(row)
    return list(out.values())


def compare_cell(cmp, what, fmt, key, points, run, reference=None):
    """A comparison's figure and CI, or why there is none."""
    reference = reference or run.baseline
    name = "baseline" if reference == run.baseline else reference
    if cmp is None:
        return f"no {name}" if not points.has(key, reference) else MISSING_CELL
    value, ci = getattr(cmp, what), getattr(cmp, f"{what}_ci")
    if value is None:
        return f"undefined ({name} 0)"
    null = 1.0 if what == "ratio" else 0.0
    mark = f" {labels.NONE_MARK}" if labels.none_measurable(ci, null) else ""
    return f"{fmt(value)} {labels.interval(ci, fmt)}{mark}"


def paired_cell(p):
    """Median of the per-round ratios, its order-statistic interval, n."""
    if p is None:
        return MISSING_CELL
    mark = f" {labels.NONE_MARK}" if labels.none_measurable(p.ratio_ci, 1.0) else ""
    return f"{labels.ratio(p.ratio)} {labels.interval(p.ratio_ci)} n={p.n}{mark}"


def header_lines(run):
    """Run id, date, project commit and configurations, as plain lines."""
    meta = run.metadata
    lines = [f"run: {run.run_id}"]
    if meta.get("date"):
        lines.append(f"date: {meta['date']}")
    commit = project_commit(meta)
    if commit:
        lines.append(f"project commit: {commit}")
    lines.append("configurations: " + "; ".join(
        labels.config_line(n, c, run.baseline, fill=n in run.fill_configs)
        for n, c in meta["configurations"].items()))
    if run.pairs:
        lines.append("also compared: " + "; ".join(f"{c} with {ref}" for c, ref in run.pairs))
    if meta.get("kvm"):
        lines.append(f"kvm: {meta['kvm']}")
    lines.append("statistics: warm-up rows dropped; the boots of a configuration under"
                 " one clock pooled (icount determinism repeats only when they differ from"
                 " the first boot); median [p5, p95] with linear"
                 " interpolation; ratio of medians with a percentile bootstrap 95% CI"
                 " (2000 resamples, fixed seed; n/a with a single sample), resampling"
                 " rounds under icount and whole boots under other clocks (n/a with one"
                 " boot a side); under icount"
                 " also the ratio round by round (round r of a configuration against"
                 " round r of the other, which meets the same interrupts and deferred"
                 " work): the median of the per-round ratios with a distribution-free"
                 " order-statistic interval of at least 95% coverage (n/a below 6"
                 " rounds); rounds of one boot are not independent, so it bounds the"
                 " spread over rounds, not a sampling error; "
                 f"{labels.NONE_MARK}: the interval contains 1 (a ratio) or 0 (a"
                 f" difference): {labels.NONE_MEASURABLE}")
    return lines


def project_commit(meta):
    p = meta.get("project")
    if isinstance(p, dict) and p.get("commit"):
        return p["commit"] + (" (work tree dirty)" if p.get("dirty") else "")
    if isinstance(p, str):
        return p
    return meta.get("project_commit", "")


def markdown(run, secs, gaps, notes=()):
    out = [f"# Benchmark summary: {run.run_id}", ""]
    out += [f"- {line}" for line in header_lines(run)]
    out.append("")
    clock = None
    for sec_clock, workload, header, rows in secs:
        if sec_clock != clock:
            clock = sec_clock
            out += [f"## Clock {clock}: {labels.clock_title(clock)}", ""]
        out += [f"### {workload}", ""]
        out.append("| " + " | ".join(md_escape(h) for h in header) + " |")
        out.append("|" + "|".join("---" if i < 4 else "---:" for i in range(len(header))) + "|")
        out += ["| " + " | ".join(md_escape(c) for c in row) + " |" for row in rows]
        out.append("")
    out += ["## Missing", ""]
    out += [f"- {md_escape(g)}" for g in gaps] or ["Nothing is missing."]
    out.append("")
    if notes:
        out += ["## Notes", ""] + [f"- {md_escape(n)}" for n in notes] + [""]
    return "\n".join(out)


def md_escape(text):
    return str(text).replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


TEX_ESCAPES = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
               "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
               "^": r"\textasciicircum{}", "<": r"\textless{}", ">": r"\textgreater{}"}


def tex_escape(text):
    return "".join(TEX_ESCAPES.get(ch, ch) for ch in str(text))


def tex_row(cells):
    """One tabular row; a leading '[' is braced so the previous \\\\ cannot take it
    as its optional argument."""
    text = " & ".join(tex_escape(c) for c in cells) + r" \\"
    return "{}" + text if text.startswith("[") else text


def latex(run, secs, gaps):
    out = [f"% Benchmark summary of run {tex_escape(run.run_id)}, written by analysis/analyze.",
           "% Needs \\usepackage{booktabs}.", ""]
    out += [tex_escape(line) + r"\\" for line in header_lines(run)]
    out.append("")
    for clock, workload, header, rows in secs:
        out.append(r"\paragraph{" + tex_escape(f"Clock {clock}, workload {workload}") + "}")
        out.append(r"\begin{tabular}{" + "l" * 4 + "r" * (len(header) - 4) + "}")
        out.append(r"\toprule")
        out.append(" & ".join(tex_escape(h) for h in header) + r" \\")
        out.append(r"\midrule")
        out += [tex_row(row) for row in rows]
        out.append(r"\bottomrule")
        out.append(r"\end{tabular}")
        out.append("")
    out.append(r"\paragraph{Missing}")
    if gaps:
        out.append(r"\begin{itemize}")
        out += [r"\item " + tex_escape(g) for g in gaps]
        out.append(r"\end{itemize}")
    else:
        out.append("Nothing is missing.")
    out.append("")
    return "\n".join(out)


def write_all(run, points, outdir, notes=()):
    """Write summary.md, summary.tex and (only when something is missing)
    MISSING.md into outdir; return the paths written."""
    os.makedirs(outdir, exist_ok=True)
    secs = sections(run, points)
    gaps = missing.lines(run, points)
    written = []
    for name, text in (("summary.md", markdown(run, secs, gaps, notes)),
                       ("summary.tex", latex(run, secs, gaps))):
        path = os.path.join(outdir, name)
        with open(path, "w") as f:
            f.write(text)
        written.append(path)
    path = os.path.join(outdir, "MISSING.md")
    if gaps:
        with open(path, "w") as f:
            f.write(f"# Missing from run {run.run_id}\n\n" + "".join(f"- {g}\n" for g in gaps))
        written.append(path)
    elif os.path.exists(path):
        os.remove(path)
    return written
