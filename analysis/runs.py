"""Find a benchmark run and load it, refusing anything malformed.

A run is results/bench/<run-id>/ as benchmarks/run leaves it: metadata.json
and samples.csv. Everything downstream trusts what load() returns, so the
checks live here, and each error names the file, the line where there is
one, and what would have been valid: a wrong run directory should cost the
reader one look, not a traceback.
"""
import csv
import json
import os
import re
from collections import namedtuple

# The columns of samples.csv, from their one definition beside the runs.
SCHEMA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                      "results", "bench", "samples.schema")


def read_schema(path=SCHEMA):
    """The columns of samples.csv: the schema file's one line that is not a comment."""
    with open(path) as f:
        return next(line.strip() for line in f
                    if line.strip() and not line.startswith("#")).split(",")


HEADER = read_schema()
REQUIRED_KEYS = ("run_id", "baseline", "configurations", "boots")
FILL = "fill"  # the workload of the fill configurations (analysis/sizing.py)
CONC = "conc"  # many loaders at once, in boots of their own (analysis/conc.py)
RUN_ID = re.compile(r"^\d{8}-\d{6}-")
CLOCK_ORDER = ("icount", "wall", "kvm")

Sample = namedtuple("Sample", HEADER)


class RunError(Exception):
    """A run directory that cannot be analysed; the message says why."""


class Run:
    """One loaded run: its metadata and its samples (warm-ups included).

    configs is the names of the compared configurations in metadata
    order (the colour order of every plot); baseline is one of them.
    fill_configs (metadata "fill_configurations") ran only the fill
    workload: they are no part of configs, and their samples go to
    analysis/sizing.py alone. pairs (metadata "pairs") is [(config,
    reference)]: config is compared with reference as every configuration
    is with the baseline. Both are empty in runs older than the keys.
    """

    def __init__(self, path, metadata, samples):
        self.path = path
        self.metadata = metadata
        self.samples = samples
        self.run_id = metadata["run_id"]
        self.baseline = metadata["baseline"]
        self.fill_configs = list(metadata.get("fill_configurations", []))
        self.configs = [c for c in metadata["configurations"] if c not in self.fill_configs]
        self.pairs = [tuple(p) for p in metadata.get("pairs", [])]
        self.boots = metadata["boots"]

    @property
    def measured(self):
        """The samples analysis uses: warm-up rows dropped."""
        return [s for s in self.samples if not s.warmup]

    @property
    def ordinary(self):
        """The measured samples of the compared configurations (fill and conc rows
        aside: each has a module of its own)."""
        return [s for s in self.measured
                if s.config not in self.fill_configs and s.workload not in (FILL, CONC)]

    @property
    def fill(self):
        """The measured fill rows, whichever configuration wrote them (sizing.py)."""
        return [s for s in self.measured if s.workload == FILL]

    @property
    def failed_boots(self):
        return [b for b in self.boots if b.get("status") != "ok"]

    @property
    def clocks(self):
        """Clocks with samples, or named by the run, in a fixed order."""
        seen = list(self.metadata.get("clocks", []))
        for s in self.samples:
            if s.config in self.fill_configs or s.workload == FILL:
                continue  # fill counts objects, under no clock that matters
            if s.clock not in seen:
                seen.append(s.clock)
        known = [c for c in CLOCK_ORDER if c in seen]
        return known + [c for c in seen if c not in CLOCK_ORDER]


def list_runs(root):
    """Run directories under root, oldest first (run ids sort by time)."""
    if not os.path.isdir(root):
        raise RunError(f"{root}: no such results directory (benchmarks/run writes runs there)")
    return sorted(d for d in os.listdir(root)
                  if RUN_ID.match(d) and os.path.isdir(os.path.join(root, d)))


def failed_boots(path):
    """How many boots of the run at path failed, from its metadata.json (None when it
    cannot be read)."""
    try:
        with open(os.path.join(path, "metadata.json")) as f:
            boots = json.load(f).get("boots", [])
        return sum(1 for b in boots if isinstance(b, dict) and b.get("status") != "ok")
    except (OSError, ValueError, AttributeError):
        return None


def latest(root, note=None, complete=False):
    """The newest run under root that has its metadata.json; with complete, the newest
    whose boots all succeeded too.

    A newer directory without one is a run still going (benchmarks/run
    writes metadata.json last) or one that died: it is passed over, and
    note(msg), when given, is told so; so is, with complete, a run with
    failed boots.
    """
    runs = list_runs(root)
    for run_id in reversed(runs):
        path = os.path.join(root, run_id)
        if not os.path.exists(os.path.join(path, "metadata.json")):
            if note:
                note(f"skipping {path}: no metadata.json (still running, or the run died)")
            continue
        failed = failed_boots(path) if complete else 0
        if failed:
            if note:
                note(f"skipping {path}: {failed} boot(s) failed (not a complete run)")
            continue
        return path
    raise RunError(f"{root}: no {'complete ' if complete else ''}runs (expected directories"
                   " named YYYYMMDD-HHMMSS-<id> holding metadata.json and samples.csv, as"
                   " benchmarks/run writes them)")


def latest_by_workload(root):
    """{workload: run id}: the newest complete run (metadata.json, every boot ok) that
    measured each workload its metadata names, in the order workloads first appear."""
    out = {}
    for run_id in reversed(list_runs(root)):
        path = os.path.join(root, run_id)
        if failed_boots(path) != 0:
            continue
        with open(os.path.join(path, "metadata.json")) as f:
            workloads = json.load(f).get("workloads", [])
        for w in workloads if isinstance(workloads, list) else []:
            out.setdefault(w, run_id)
    return out


def load(path):
    """Load and check the run at path; raise RunError on anything wrong."""
    if not os.path.isdir(path):
        root = os.path.dirname(os.path.abspath(path))
        try:
            valid = list_runs(root)
        except RunError:
            valid = []
        hint = f" (runs in {root}: {', '.join(valid)})" if valid else ""
        raise RunError(f"{path}: no such run directory{hint}")
    metadata = load_metadata(os.path.join(path, "metadata.json"))
    samples = load_samples(os.path.join(path, "samples.csv"), list(metadata["configurations"]))
    return Run(path, metadata, samples)


def load_metadata(path):
    if not os.path.exists(path):
        raise RunError(f"{path}: missing; a run directory holds metadata.json and"
                       " samples.csv (written by benchmarks/run)")
    try:
        with open(path) as f:
            meta = json.load(f)
    except json.JSONDecodeError as e:
        raise RunError(f"{path}:{e.lineno}: not valid JSON: {e.msg}") from None
    except (OSError, UnicodeDecodeError) as e:
        raise RunError(f"{path}: cannot read: {e}") from None
    if not isinstance(meta, dict):
        raise RunError(f"{path}: expected a JSON object with keys {', '.join(REQUIRED_KEYS)}")
    for key in REQUIRED_KEYS:
        if key not in meta:
            raise RunError(f"{path}: missing key '{key}' (required: {', '.join(REQUIRED_KEYS)})")
    configs = meta["configurations"]
    if not isinstance(configs, dict) or not configs:
        raise RunError(f"{path}: 'configurations' must be a non-empty object"
                       " {name: {\"variant\": ..., \"boot_args\": ...}}")
    fill = check_fill_configurations(path, meta.get("fill_configurations", []), configs)
    compared = [c for c in configs if c not in fill]
    if meta["baseline"] in fill:
        raise RunError(f"{path}: baseline '{meta['baseline']}' is a fill configuration"
                       f" (valid: {', '.join(compared)})")
    # A run of fill configurations alone compares nothing: its baseline
    # (benchmarks/configurations' first line) was not booted, and is unused.
    if meta["baseline"] not in configs and compared:
        raise RunError(f"{path}: baseline '{meta['baseline']}' is not a configuration"
                       f" (valid: {', '.join(compared)})")
    check_pairs(path, meta.get("pairs", []), compared)
    if not isinstance(meta["boots"], list) or not all(isinstance(b, dict) for b in meta["boots"]):
        raise RunError(f"{path}: 'boots' must be a list of objects"
                       " {\"config\", \"clock\", \"boot\", \"status\", \"reason\"}")
    return meta


def check_fill_configurations(path, fill, configs):
    """metadata "fill_configurations": a list of distinct names of configurations."""
    if not isinstance(fill, list) or not all(isinstance(c, str) for c in fill):
        raise RunError(f"{path}: 'fill_configurations' must be a list of configuration names"
                       f" (valid: {', '.join(configs)})")
    for name in fill:
        if name not in configs:
            raise RunError(f"{path}: fill configuration '{name}' is not a configuration"
                           f" (valid: {', '.join(configs)})")
        if fill.count(name) > 1:
            raise RunError(f"{path}: fill configuration '{name}' is named twice")
    return fill


def check_pairs(path, pairs, compared):
    """metadata "pairs": [[config, reference], ...], two distinct compared configurations."""
    valid = ", ".join(compared) or "none"
    if not isinstance(pairs, list):
        raise RunError(f"{path}: 'pairs' must be a list of [config, reference] pairs"
                       f" of configurations (valid names: {valid})")
    for pair in pairs:
        if (not isinstance(pair, list) or len(pair) != 2
                or not all(isinstance(c, str) for c in pair)):
            raise RunError(f"{path}: pair {json.dumps(pair)} is not [config, reference]"
                           f" (valid names: {valid})")
        if pair[0] == pair[1] or not all(c in compared for c in pair):
            raise RunError(f"{path}: pair {json.dumps(pair)} must name two distinct"
                           f" configurations that are not fill configurations"
                           f" (valid names: {valid})")


def load_samples(path, configs):
    """Every row of samples.csv as a Sample, checked field by field."""
    if not os.path.exists(path):
        raise RunError(f"{path}: missing; benchmarks/run writes it (header only when no"
                       " boot produced samples)")
    samples = []
    with open(path, newline="") as f:
        reader = csv.reader(f)
        header = next(reader, None)
        if header != HEADER:
            got = ",".join(header) if header else "(empty file)"
            raise RunError(f"{path}:1: bad header '{got}'; expected '{','.join(HEADER)}'")
        for row in reader:
            line = reader.line_num
            if not row:
                continue
            samples.append(parse_row(path, line, row, configs))
    return samples


def parse_row(path, line, row, configs):
    where = f"{path}:{line}"
    if len(row) != len(HEADER):
        raise RunError(f"{where}: {len(row)} fields, expected {len(HEADER)} ({','.join(HEADER)})")
    r = dict(zip(HEADER, row))
    for field in ("config", "clock", "workload", "case", "metric"):
        if not r[field]:
            raise RunError(f"{where}: empty '{field}'")
    if r["config"] not in configs:
        raise RunError(f"{where}: unknown configuration '{r['config']}'"
                       f" (valid, from metadata.json: {', '.join(configs)})")
    ints = {}
    for field in ("boot", "round"):
        try:
            ints[field] = int(r[field])
        except ValueError:
            raise RunError(f"{where}: '{field}' is '{r[field]}', expected an integer") from None
    if r["warmup"] not in ("0", "1"):
        raise RunError(f"{where}: 'warmup' is '{r['warmup']}', expected 0 or 1")
    try:
        value = float(r["value"])
    except ValueError:
        raise RunError(f"{where}: 'value' is '{r['value']}', expected a number") from None
    if value != value or value in (float("inf"), float("-inf")):
        raise RunError(f"{where}: 'value' is '{r['value']}', expected a finite number")
    return Sample(r["config"], r["clock"], ints["boot"], r["workload"], r["case"], r["x"],
                  r["metric"], r["unit"], ints["round"], r["warmup"] == "1", value)
