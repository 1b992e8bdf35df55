#!/usr/bin/python3
"""The one writer of metadata.json, for every kind of result.

A result directory results/<kind>/<run-id>/ holds a metadata.json with the
same keys everywhere, enough to reproduce the run: the project commit and
whether the work tree was dirty, the kernel tree's version, the series
commit and a hash of each patch, per configuration its variant, boot
arguments, kernel release and .config hash, the QEMU version, the boots
(argv, accelerator, icount, vCPUs, memory), the toolchain and the host.

As a module: describe(...) returns the dict, write(path, meta) stores it.
As a command (for shell callers such as tests/selftests):

    vm/metadata.py --kind KIND --run-id ID --arch ARCH \\
        --config NAME=VARIANT[:BOOT ARGS] ... [--boots BOOTS.json] [--extra JSON] \
        > metadata.json
"""
import argparse
import datetime
import hashlib
import json
import os
import platform
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("BUILD", os.path.join(TOP, "build"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import configurations  # noqa: E402  (vm/configurations.py, the one reader of vm/variants)


def _out(*cmd, cwd=None):
    """First line of a command's output, or "unknown" when it cannot run."""
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, check=False)
    except OSError:
        return "unknown"
    lines = (r.stdout or r.stderr).strip().splitlines()
    return lines[0].strip() if r.returncode == 0 and lines else "unknown"


def sha256(path):
    h = hashlib.sha256()
    try:
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
    except OSError:
        return "missing"
    return h.hexdigest()


def _read(path):
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return "missing"


def project():
    r = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                       capture_output=True, text=True, cwd=TOP, check=False)
    return {"commit": _out("git", "rev-parse", "HEAD", cwd=TOP),
            "dirty": r.stdout.strip() != "" if r.returncode == 0 else None}


def series():
    pdir = os.path.join(TOP, "patches")
    patches = sorted(p for p in os.listdir(pdir) if p.endswith(".patch"))
    return {"commit": _out("git", "rev-parse", "HEAD", cwd=os.path.join(BUILD, "linux")),
            "patches": {p: sha256(os.path.join(pdir, p)) for p in patches}}


def _variant_source(variant):
    known = configurations.variants()
    if variant not in known:
        raise SystemExit(f"metadata: unknown variant '{variant}' (valid: {' '.join(known)};"
                         " vm/variants)")
    return known[variant]


def configuration(arch, variant, boot_args):
    obj = os.path.join(BUILD, "kernel", f"{arch}-{variant}")
    return {"variant": variant, "source": _variant_source(variant), "boot_args": boot_args,
            "kernel_release": _read(os.path.join(obj, "kernelrelease")),
            "config_sha256": sha256(os.path.join(obj, ".config")),
            "image_sha256": sha256(os.path.join(obj, "arch", arch, "boot", "Image"))}


def host():
    model = "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {"cpu_model": model, "cpus": os.cpu_count(), "machine": platform.machine(),
            "kernel": platform.release()}


def toolchain():
    return {"clang": _out("clang-19", "--version"), "ld.lld": _out("ld.lld-19", "--version"),
            "cross_gcc": _out("aarch64-linux-gnu-gcc", "--version"),
            "bpftool": _out("bpftool", "--version"), "python": sys.version.split()[0]}


def describe(kind, run_id, arch, configs, boots=(), at_start=None):
    """configs: {name: (variant, boot_args)} in order; boots: dicts from the runner;
    at_start: what start() returned when the run began (the project and series as
    they were then, not when the run ends), or None to take them now."""
    at_start = at_start or start()
    return {
        "kind": kind,
        "run_id": run_id,
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "arch": arch,
        "project": at_start["project"],
        "tree": {"package": "linux-source-6.12",
                 "version": _out("dpkg-query", "-W", "-f", "${Version}", "linux-source-6.12")},
        "series": at_start["series"],
        "configurations": {name: configuration(arch, v, args) for name, (v, args) in configs.items()},
        "qemu": {"version": _out("qemu-system-aarch64", "--version")},
        "boots": list(boots),
        "toolchain": toolchain(),
        "host": host(),
    }


def start():
    """The project's commit and the series, taken when a run starts (describe's at_start)."""
    return {"project": project(), "series": series()}


def write(path, meta):
    tmp = path + ".new"
    with open(tmp, "w") as f:
        json.dump(meta, f, indent=1)
        f.write("\n")
    os.replace(tmp, path)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kind", required=True)
    ap.add_argument("--run-id", required=True)
    ap.add_argument("--arch", default="arm64")
    ap.add_argument("--config", action="append", required=True, metavar="NAME=VARIANT[:ARGS]")
    ap.add_argument("--boots", help="JSON file with the list of boots")
    ap.add_argument("--extra", default="{}", help="JSON object of keys the caller adds")
    a = ap.parse_args(argv)
    configs = {}
    for c in a.config:
        name, sep, rest = c.partition("=")
        variant, _, args = rest.partition(":")
        if not sep or not name or not variant:
            ap.error(f"--config '{c}': expected NAME=VARIANT[:BOOT ARGS]")
        configs[name] = (variant, args)
    boots = []
    if a.boots:
        with open(a.boots) as f:
            boots = json.load(f)
    try:
        extra = json.loads(a.extra)
    except json.JSONDecodeError as e:
        ap.error(f"--extra is not JSON: {e}")
    if not isinstance(extra, dict):
        ap.error("--extra must be a JSON object")
    meta = describe(a.kind, a.run_id, a.arch, configs, boots)
    meta.update(extra)
    json.dump(meta, sys.stdout, indent=1)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
