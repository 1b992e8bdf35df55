"""How clocks, units and numbers are written for people.

One place decides that a value in "ns" under the icount clock is a count of
guest instructions (QEMU -icount shift=0 makes one guest ns one guest
instruction), so no plot, table or report line can call it nanoseconds.
"""

CLOCK_TITLES = {
    "icount": "icount (QEMU -icount shift=0: 1 guest ns = 1 guest instruction)",
    "wall": "wall clock (QEMU TCG)",
    "kvm": "KVM",
}


def clock_title(clock):
    return CLOCK_TITLES.get(clock, clock)


def unit(unit, clock):
    """The unit of a value as measured under clock."""
    if unit == "ns" and clock == "icount":
        return "guest instructions"
    return unit


def short_unit(unit_, clock):
    """A compact unit for per-call figures: 'instructions' or 'ns'."""
    u = unit(unit_, clock)
    return "instructions" if u == "guest instructions" else u


def number(v, unit_=None):
    """A value with a precision that suits its size; '-' for None.

    Whole counts and byte sizes print without decimals; other values get
    more decimals the smaller they are (23.04, 101.4, 180000).
    """
    if v is None:
        return "-"
    a = abs(v)
    if unit_ in ("count", "bytes") and a == int(a):
        return f"{v:.0f}"
    if a >= 1000:
        return f"{v:.0f}"
    if a >= 100:
        return f"{v:.1f}"
    if a >= 1:
        return f"{v:.2f}"
    return f"{v:.3g}"


def ratio(v):
    return "-" if v is None else f"{v:.3f}"


def delta(v):
    """A signed difference: +5.0, -0.25, +1234."""
    if v is None:
        return "-"
    a = abs(v)
    if a >= 100:
        return f"{v:+.0f}"
    if a >= 1:
        return f"{v:+.1f}"
    return f"{v:+.2f}"


def interval(ci, fmt=ratio):
    return "n/a" if ci is None else f"[{fmt(ci[0])}, {fmt(ci[1])}]"


NONE_MEASURABLE = "no difference measurable at this n"
# Marks a ratio whose interval contains 1 (a legend line under the table says so).
NONE_MARK = "~"


def none_measurable(ci, null):
    """Whether an interval contains null, the value of no difference (1 for a
    ratio, 0 for a difference): then no difference is measurable at this n.
    False without an interval."""
    return ci is not None and ci[0] <= null <= ci[1]


def config_line(name, conf, baseline, fill=False):
    """'series (variant series, boot args "x=1")' with the baseline marked,
    and a fill configuration (sizing only) too."""
    bits = [f"variant {conf.get('variant', '?')}"]
    if conf.get("boot_args"):
        bits.append(f"boot args \"{conf['boot_args']}\"")
    if name == baseline:
        bits.insert(0, "baseline")
    if fill:
        bits.insert(0, "fill only")
    return f"{name} ({', '.join(bits)})"


def count(v, whole=False):
    """A count for people: 229320 -> 229,320; a fractional mean keeps one
    decimal (425.33 -> 425.3) unless whole (a predicted number of objects)."""
    if v is None:
        return "-"
    if whole or abs(v - round(v)) < 0.05:
        return f"{round(v):,}"
    return f"{v:,.1f}"


KIB = 1024


SIZE_UNITS = ((KIB ** 4, "TiB"), (KIB ** 3, "GiB"), (KIB ** 2, "MiB"), (KIB, "KiB"))


def size_bytes(v):
    """A byte size, exact in the largest binary unit it is a whole number of
    (4096 -> 4 KiB, 2101248 -> 2052 KiB, 2 ** 31 -> 2 GiB), else to three
    significant digits (1500000 -> 1.43 MiB)."""
    if v is None:
        return "-"
    for scale, suffix in SIZE_UNITS:
        if abs(v) >= scale and v % scale == 0:
            return f"{v // scale:.0f} {suffix}"
    for scale, suffix in SIZE_UNITS:
        if abs(v) >= scale:
            return f"{v / scale:.3g} {suffix}"
    return f"{v:.0f} bytes"


def mib(v):
    """A region size given in MiB: 64 -> 64 MiB, 1024 -> 1 GiB."""
    return size_bytes(v * KIB * KIB)


def percent(v):
    """A signed relative figure: 0.0123 -> +1.23%."""
    return "-" if v is None else f"{v * 100:+.2f}%"
