"""Figure plumbing shared by every plot: layout, legend, notes, saving.

Kept apart from plots.py so each plot function says only what it shows.
Saving writes a PNG (to look at) and a PDF (for the paper), the PDF without
a creation date so re-running the analysis does not churn the files.
"""
import math
import os
import textwrap

import matplotlib

matplotlib.use("Agg")  # files only, never a window; before pyplot is imported

import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.ticker as ticker  # noqa: E402

import style  # noqa: E402

NCOLS_MAX = 4


class Skip(Exception):
    """A plot whose data is absent; the message says what is missing."""


def grid(n, width=3.4, height=2.8, ncols=NCOLS_MAX, sharey=False):
    """A figure with n axes in rows of at most ncols; unused axes hidden."""
    style.setup()
    ncols = max(1, min(n, ncols))
    nrows = math.ceil(n / ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(width * ncols + 0.6, height * nrows + 1.2),
                             squeeze=False, sharey=sharey)
    flat = [ax for row in axes for ax in row]
    for ax in flat[n:]:
        ax.set_visible(False)
    return fig, flat[:n]


def finish(fig, title, handles, note=""):
    """Title on top, one legend for the figure at the bottom, a note under it."""
    ncol = min(len(handles), 4) or 1
    rows = math.ceil(len(handles) / ncol) if handles else 0
    height = fig.get_size_inches()[1]
    note_lines = note.count("\n") + 1 if note else 0
    bottom = (rows * 0.25 + note_lines * 0.16 + 0.1) / height
    chars = int(fig.get_size_inches()[0] * 11)
    title = "\n".join(textwrap.fill(line, chars) for line in title.split("\n"))
    fig.suptitle(title)
    # tight_layout makes room for the suptitle; a little more keeps it off the axes titles.
    fig.tight_layout(rect=(0, bottom, 1, 1 - 0.08 / height))
    if handles:
        fig.legend(handles, [h.get_label() for h in handles], loc="lower center", ncol=ncol,
                   frameon=False, bbox_to_anchor=(0.5, note_lines * 0.16 / height))
    if note:
        fig.text(0.01, 0.01, note, fontsize=7, ha="left", va="bottom", color="#444444")


def log_x_at(ax, values, most=8):
    """Log x axis ticked at the measured values (thinned to at most `most`), as plain numbers.

    Program sizes and counts are powers of two or ten; labels like 2x10^0
    say less than "8, 512, 4096".
    """
    ax.set_xscale("log")
    values = sorted(set(v for v in values if v is not None and v > 0))
    if not values:
        return
    step = -(-len(values) // most)
    shown = values[::step]
    if values[-1] not in shown:
        shown.append(values[-1])
    ax.xaxis.set_major_locator(ticker.FixedLocator(shown))
    ax.xaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _: short_number(v)))
    ax.xaxis.set_minor_locator(ticker.NullLocator())


def log_y(ax):
    """Log y axis with ticks at 1, 2, 5 per decade, labelled 200k, 1M, ..."""
    ax.set_yscale("log")
    ax.yaxis.set_major_locator(ticker.LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    ax.yaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _: short_number(v)))
    ax.yaxis.set_minor_locator(ticker.LogLocator(base=10, subs="auto"))
    ax.yaxis.set_minor_formatter(ticker.NullFormatter())


def short_number(v):
    """8 -> 8, 4096 -> 4096, 1500 -> 1.5k, 2000000 -> 2M."""
    if v == int(v) and abs(v) < 100000 and abs(v) % 1000:
        return f"{v:.0f}"
    for scale, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(v) >= scale:
            return f"{v / scale:g}{suffix}"
    return f"{v:g}"


def save(fig, outdir, name):
    """Write name.png and name.pdf into outdir; return their paths."""
    os.makedirs(outdir, exist_ok=True)
    paths = []
    for ext, extra in (("png", {}), ("pdf", {"metadata": {"CreationDate": None}})):
        path = os.path.join(outdir, f"{name}.{ext}")
        fig.savefig(path, **extra)
        paths.append(path)
    plt.close(fig)
    return paths


def close(fig):
    plt.close(fig)


def close_all():
    plt.close("all")
