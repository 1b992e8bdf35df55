"""One look per configuration, the same in every plot.

Configurations take colour, marker, line style and bar hatch from their
position in metadata.json's configurations (the baseline first), so a
configuration looks the same across all plots of a run. The colours are
Okabe and Ito's colour-blind-safe palette; markers, line styles and hatches
differ as well, so the plots survive printing in black and white.
"""
import matplotlib

COLOURS = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9",
           "#000000", "#F0E442"]
MARKERS = ["o", "s", "^", "D", "v", "P", "X", "*"]
LINESTYLES = ["-", "--", "-.", ":", (0, (5, 1)), (0, (3, 1, 1, 1, 1, 1)), (0, (1, 3)),
              (0, (8, 2, 2, 2))]
HATCHES = ["", "//", "..", "xx", "\\\\", "++", "oo", "--"]


class Style:
    def __init__(self, index):
        # Earlier configurations draw thicker, so a later line lying on top
        # of the baseline leaves it visible at its edges.
        self.linewidth = max(1.0, 2.6 - 0.6 * index)
        self.colour = COLOURS[index % len(COLOURS)]
        self.marker = MARKERS[index % len(MARKERS)]
        self.linestyle = LINESTYLES[index % len(LINESTYLES)]
        self.hatch = HATCHES[index % len(HATCHES)]

    def line(self):
        """Keyword arguments for Axes.plot / Axes.errorbar."""
        return {"color": self.colour, "marker": self.marker, "linestyle": self.linestyle,
                "markersize": 5, "linewidth": self.linewidth}

    def bar(self):
        """Keyword arguments for Axes.bar."""
        return {"facecolor": self.colour, "hatch": self.hatch, "edgecolor": "black",
                "linewidth": 0.6}


def styles(configs):
    """{config: Style} by position in the run's configuration order."""
    return {name: Style(i) for i, name in enumerate(configs)}


def setup():
    """Plot defaults shared by every figure."""
    matplotlib.rcParams.update({
        "figure.dpi": 100, "savefig.dpi": 150, "font.size": 9, "axes.titlesize": 10,
        "legend.fontsize": 8, "axes.grid": True, "grid.alpha": 0.3, "hatch.linewidth": 0.6,
        "pdf.fonttype": 42, "svg.hashsalt": "analysis", "path.simplify": False,
    })
