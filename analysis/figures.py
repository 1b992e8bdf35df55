"""Figure plumbing shared by every plot: layout, legend, notes, saving.

Kept apart from plots.py so each plot function says only what it shows.
Saving writes a PNG (to look at) and a PDF (for the paper), the PDF without
a creation date so re-running the analysis does not churn the files.
"""
import math
import os

import matplotlib.pyplot as plt

import style

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
    fig.suptitle(title)
    fig.tight_layout(rect=(0, bottom, 1, 1 - 0.15 / height * (title.count("\n") + 1)))
    if handles:
        fig.legend(handles, [h.get_label() for h in handles], loc="lower center", ncol=ncol,
                   frameon=False, bbox_to_anchor=(0.5, note_lines * 0.16 / height))
    if note:
        fig.text(0.01, 0.01, note, fontsize=7, ha="left", va="bottom", color="#444444")


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
