#!/usr/bin/python3
"""Check that every figure the README and the cover letter quote comes from a committed run.

usage: tests/figures.py [DOCUMENT ...]

A document is read as units (a paragraph, a list item, a table) within its
sections (Markdown headings, or the cover letter's underlined titles). A
unit's runs are the results/bench run ids it names (20261207-154951, or
-122357 after a full id), else those of the last unit before it in the same
section that named one. Each figure of a unit (a number with a decimal point,
thousands separators or at least three digits, outside `code`, links, sizes
such as 128 MiB and percentages) must be

  - in one of its runs' committed tables (tables/*.md), determinism.json or
    raw samples (samples.csv values), with the same value as written (the
    sign and thousands separators aside: 1.042 matches 1.042, not 1.0417,
    which the tables would print as 1.042 themselves), or
  - in the per-runner counts of a results/selftests/<dir> the unit names
    (passed, skipped, failed, from its selftests.tsv) or among the numbers of
    its metadata.json (the seconds in the guest), or
  - listed in tests/figures.tsv: derived (an arithmetic expression of
    figures that pass), claim (part of a sentence tests/claims.tsv has
    checked for this document: the generated sizing, tune or PMU sentence),
    or not-run (not a measurement: a program size, a boot parameter's
    value, an exit status, a citation's figure), with its reason.

tests/slow/test_committed_runs.py checks that the committed tables are what
analysis/ makes of the raw samples today, so a figure that passes here
traces back to the raw data. This does not check that a figure stands where
it should (a p95 quoted as a median passes if the run has both); the
generated sentences (tests/claims.tsv) do. A paragraph that names no run
is checked against the runs its section named last, which can match a
number that is not the run's (a version, a count from a citation) by chance:
declare those not-run, which is read before the runs. Prints each figure that fails,
with its document, line and unit, and exits 1 if there is one.
"""
import argparse
import ast
import json
import operator
import os
import re
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(TOP, "results", "bench")
LIST = os.path.join(TOP, "tests", "figures.tsv")
DOCUMENTS = ("README.md", "patches/0000-cover-letter.patch")

RUN_ID = re.compile(r"\b(20\d{6})-(\d{6})(?:-(quick|full))?\b")
SHORT_ID = re.compile(r"(?<=[\s(])-(\d{6})\b")
# What is not a figure: code spans, links and lore message ids, sizes and
# percentages (configured, or the 5% bar), and run ids.
NOT_TEXT = re.compile(r"`[^`]*`|https?://\S+|<[^>\s]+@[^>\s]+>|\S+@\S+"
                      r"|\b\d[\d,.]*\s?(?:[KMG]i?B|[KMG]\b|%|x\b)"
                      # years; kernel versions (5.0 to 6.19, not +5.0)
                      r"|\b20[0-3]\d\b(?!,\d)|(?<![+\-\d.,])\bv?[56]\.(?:1\d|\d)\b(?!\.\d)")
FIGURE = re.compile(r"(?<![\w.,/-])[+-]?(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+\.\d+|\d{3,})(?![\w,/]|\.\d)")
NUMBER = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?")
SHORTLOG = re.compile(r"^\S.* \(\d+\):$")
HEADING = re.compile(r"^(#+ |[-=]{3,}\s*$)")
ITEM = re.compile(r"^\s*(?:[-*]|\d+\.)\s")
KINDS = ("derived", "claim", "not-run")
CLAIMS = os.path.join(TOP, "tests", "claims.tsv")
SELFTESTS = os.path.join(TOP, "results", "selftests")
SELFTESTS_DIR = re.compile(r"results/selftests/([\w-]+)(?![\w.-])")
OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
       ast.Div: operator.truediv}


class Unit:
    def __init__(self, doc, line, text, runs):
        self.doc, self.line, self.text, self.runs = doc, line, text, runs


def run_ids(text):
    """The run ids text names, in order; -HHMMSS after a full id takes its date."""
    ids, date = [], None
    marks = sorted([(m.start(), m) for m in RUN_ID.finditer(text)]
                   + [(m.start(), m) for m in SHORT_ID.finditer(text)], key=lambda t: t[0])
    for _, m in marks:
        if m.re is RUN_ID:
            date = m.group(1)
            ids.append(f"{m.group(1)}-{m.group(2)}-{m.group(3) or 'quick'}")
        elif date:
            ids.append(f"{date}-{m.group(1)}-quick")
    return ids


def prose(text):
    """The text without a mail's header (up to its first blank line) and without
    what git format-patch appends to a cover letter (shortlog and diffstat)."""
    lines = text.splitlines()
    if lines and lines[0].startswith("From "):
        first = lines.index("") if "" in lines else len(lines)
        lines = [""] * (first + 1) + lines[first + 1:]
    for n, line in enumerate(lines):
        if SHORTLOG.match(line):
            return lines[:n]
    return lines


def units(doc, text):
    """The document's units, each with the runs it quotes (its own or carried)."""
    out, cur, start, carried = [], [], 0, []
    lines = prose(text)

    def close():
        nonlocal carried
        if cur:
            body = " ".join(cur)
            own = run_ids(body)
            carried = own or carried
            out.append(Unit(doc, start, body, own or carried))
            cur.clear()

    for n, line in enumerate(lines, 1):
        underline = n < len(lines) and re.match(r"^[-=]{3,}\s*$", lines[n])
        if HEADING.match(line) or underline:
            close()
            carried = []
            continue
        if not line.strip() or ITEM.match(line) or (line.startswith("|") and cur
                                                    and not cur[-1].startswith("|")):
            close()
        if line.strip():
            if not cur:
                start = n
            cur.append(line.strip().lstrip("> "))
    close()
    return out


def figures(text):
    """The figures of a unit's text, as written."""
    text = NOT_TEXT.sub(" ", RUN_ID.sub(" ", text))
    return [m.group() for m in FIGURE.finditer(text)]


def value(token):
    """(value, decimals) of a figure as written: '+1,744' -> (1744.0, 0)."""
    t = token.replace(",", "").lstrip("+-")
    return float(t), len(t.partition(".")[2])


def matches(token, pool):
    """The figure is in the pool, as written: rounding a pool's number to the figure's
    precision would let a table of thousands of numbers match almost any short decimal."""
    v, _ = value(token)
    return v in pool


class Runs:
    """The numbers each committed run holds: its tables, determinism.json, samples."""

    def __init__(self, root=BENCH):
        self.root, self.cache = root, {}

    def numbers(self, run_id):
        if run_id not in self.cache:
            self.cache[run_id] = self._read(os.path.join(self.root, run_id))
        return self.cache[run_id]

    @staticmethod
    def _read(path):
        if not os.path.isfile(os.path.join(path, "metadata.json")):
            return None
        texts = []
        tables = os.path.join(path, "tables")
        for name in sorted(os.listdir(tables)) if os.path.isdir(tables) else ():
            if name.endswith((".md", ".json")):
                with open(os.path.join(tables, name)) as f:
                    texts.append(f.read())
        for name in ("determinism.json", "metadata.json"):
            if os.path.exists(os.path.join(path, name)):
                with open(os.path.join(path, name)) as f:
                    texts.append(json.dumps(json.load(f)))
        found = {float(m.group().replace(",", "")) for t in texts for m in NUMBER.finditer(t)}
        with open(os.path.join(path, "samples.csv")) as f:
            next(f)
            for line in f:
                found.add(abs(float(line.rstrip("\n").rpartition(",")[2])))
        return found


def selftests_counts(name):
    """The passed/skipped/failed counts per runner of results/selftests/<name>, or None."""
    path = os.path.join(SELFTESTS, name, "selftests.tsv")
    if not os.path.isfile(path):
        return None
    counts = {}
    with open(path) as f:
        next(f)
        for line in f:
            runner, _, status = line.split("\t")[:3]
            counts[(runner, status)] = counts.get((runner, status), 0) + 1
    found = set(float(c) for c in counts.values())
    meta = os.path.join(SELFTESTS, name, "metadata.json")
    if os.path.isfile(meta):
        with open(meta) as f:
            found |= {float(v) for v in json.load(f).values()
                      if isinstance(v, (int, float)) and not isinstance(v, bool)}
    return found


def claimed(path=CLAIMS):
    """{(document, claim)} of tests/claims.tsv."""
    with open(path) as f:
        return {tuple(line.split()[0::2]) for line in f
                if line.strip() and not line.startswith("#")}


def load_list(path=LIST):
    """tests/figures.tsv: {(document, figure): (kind, expression or reason, line)}."""
    entries = {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if not line.strip() or line.startswith("#"):
                continue
            fields = line.rstrip("\n").split("\t")
            fields = [x for x in fields if x.strip()]
            if len(fields) != 4 or fields[2] not in KINDS:
                raise ValueError(f"{path}:{n}: wants DOCUMENT<TAB>FIGURE<TAB>{'|'.join(KINDS)}"
                                 f"<TAB>EXPRESSION|CLAIM|REASON, got {line.strip()!r}")
            doc, fig, kind, what = (x.strip() for x in fields)
            entries[(doc, fig)] = (kind, what, n)
    return entries


def evaluate(expr):
    """(value, [the figures it uses]) of an arithmetic expression of figures."""
    used = []

    def ev(node):
        if isinstance(node, ast.Expression):
            return ev(node.body)
        if isinstance(node, ast.BinOp) and type(node.op) in OPS:
            return OPS[type(node.op)](ev(node.left), ev(node.right))
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
            used.append(repr(node.value))
            return float(node.value)
        raise ValueError(f"not arithmetic of figures: {expr!r}")
    return ev(ast.parse(expr.replace(",", ""), mode="eval")), used


def check(doc_paths, runs=None, listed=None):
    """The failures: (document, line, figure, why, unit text)."""
    runs = runs or Runs()
    listed = load_list() if listed is None else listed
    bad = []
    for doc in doc_paths:
        with open(os.path.join(TOP, doc)) as f:
            text = f.read()
        for u in units(doc, text):
            pool, missing = set(), [r for r in u.runs if runs.numbers(r) is None]
            for r in u.runs:
                pool |= runs.numbers(r) or set()
            for d in SELFTESTS_DIR.findall(u.text):
                counts = selftests_counts(d)
                if counts is None:
                    missing.append(f"results/selftests/{d}")
                else:
                    pool |= counts
            for fig in figures(u.text):
                why = judge(doc, fig, u, pool, missing, listed)
                if why:
                    bad.append((doc, u.line, fig, why, u.text))
    return bad


def judge(doc, fig, unit, pool, missing, listed):
    """None when the figure holds, else why not."""
    if missing:
        return f"names run(s) not committed: {', '.join(missing)}"
    entry = listed.get((doc, fig))
    if entry is not None and entry[0] == "not-run":
        return None  # declared no measurement: a run that holds the number is chance
    if pool and matches(fig, pool):
        return None
    if entry is None:
        where = (f"not in run(s) {', '.join(unit.runs)}" if unit.runs
                 else "the unit names no run")
        return f"{where}, nor in {os.path.relpath(LIST, TOP)}"
    kind, what, n = entry
    if kind == "not-run":
        return None
    if kind == "claim":
        if (doc, what) in claimed():
            return None
        return f"{os.path.relpath(LIST, TOP)}:{n}: {os.path.relpath(CLAIMS, TOP)} checks no {what} claim in {doc}"
    try:
        got, used = evaluate(what)
    except (ValueError, SyntaxError, ZeroDivisionError) as e:
        return f"{os.path.relpath(LIST, TOP)}:{n}: {e}"
    v, decimals = value(fig)
    if round(abs(got), decimals) != v:
        return f"{os.path.relpath(LIST, TOP)}:{n}: {what} is {got:g}, not {fig}"
    absent = [x for x in used if not matches(x, pool)]
    if absent:
        return (f"{os.path.relpath(LIST, TOP)}:{n}: {', '.join(absent)} of {what} not in"
                f" run(s) {', '.join(unit.runs) or '(none named)'}")
    return None


def main(argv):
    ap = argparse.ArgumentParser(prog="tests/figures.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("documents", nargs="*", default=list(DOCUMENTS), metavar="DOCUMENT",
                    help="paths from the top (default: %(default)s)")
    args = ap.parse_args(argv)
    for d in args.documents:
        if not os.path.isfile(os.path.join(TOP, d)):
            ap.error(f"no document {d} (paths are from the top, e.g. README.md)")
    try:
        bad = check(args.documents)
    except ValueError as e:
        print(f"tests/figures.py: error: {e}", file=sys.stderr)
        return 2
    for doc, line, fig, why, text in bad:
        print(f"{doc}:{line}: {fig}: {why}\n    {text[:100]}...")
    print(f"tests/figures.py: {len(bad)} figure(s) not traced to a run")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
