"""The kernel config the selftests want, and the tests skipped by name: config, deny."""
import fnmatch
import os
import re
import sys


def read_config(path):
    opts = {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            m = re.match(r"^(CONFIG_\w+)=(.*)$", line) or re.match(r"^# (CONFIG_\w+) is not set$", line)
            if m:
                opts[m.group(1)] = m.group(2) if m.lastindex == 2 else "n"
    return opts


UNEXPLAINED = "not set by this kernel's fragments"


def cmd_config(dotconfig, reasons_file, fragments):
    """Print the options the selftests' fragments want that the kernel lacks, each with
    its reason from reasons_file; 1 if one has none (a gap nobody explained)."""
    have = read_config(dotconfig)
    reasons = []
    with open(reasons_file) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                pat, _, why = line.strip().partition(" ")
                reasons.append((pat, why.strip()))
    print("option\twanted\tin_kernel\treason")
    unexplained = []
    for frag in fragments:
        if not os.path.exists(frag):
            sys.exit(f"selftests.py: no config fragment {frag}")
        for opt, want in read_config(frag).items():
            got = have.get(opt, "n")
            if got == want or (want == "m" and got == "y"):
                continue
            why = UNEXPLAINED
            for pat, r in reasons:
                if fnmatch.fnmatch(opt, pat):
                    why = r
            print(f"{opt}\t{want}\t{got}\t{why}")
            if why == UNEXPLAINED:
                unexplained.append(opt)
    if unexplained:
        print(f"selftests.py: config: {len(unexplained)} option(s) the selftests want are"
              f" neither in the kernel nor explained in {reasons_file}: {', '.join(unexplained)}",
              file=sys.stderr)
        return 1
    return 0


def read_denylist(path):
    """[(name, reason)] of a DENYLIST file."""
    out = []
    with open(path) as f:
        for line in f:
            name, _, why = line.partition("#")
            if name.strip():
                out.append((name.strip(), why.strip() or "no reason given"))
    return out


def cmd_deny(dotconfig, skips, denylists):
    have = read_config(dotconfig)
    entries = []
    with open(skips) as f:
        for n, line in enumerate(f, 1):
            body, _, why = line.partition("#")
            if not body.strip():
                continue
            # NAME may hold spaces: test_progs' subtest names do.
            fields = body.split(None, 1)
            if len(fields) != 2 or not why.strip():
                sys.exit(f"selftests.py: {skips}:{n}: want 'WHEN NAME # reason' (WHEN: always or CONFIG_X=VALUE), got {line.strip()!r}")
            when, name = fields[0], fields[1].strip()
            if when != "always":
                m = re.match(r"^(CONFIG_\w+)=(\S+)$", when)
                if not m:
                    sys.exit(f"selftests.py: {skips}:{n}: WHEN must be 'always' or CONFIG_X=VALUE, got {when!r}")
                if have.get(m.group(1), "n") != m.group(2):
                    continue
            entries.append((name, f"{why.strip()} ({os.path.basename(skips)}: {when})"))
    for path in denylists:
        if not os.path.exists(path):
            sys.exit(f"selftests.py: no denylist {path}")
        for name, why in read_denylist(path):
            entries.append((name, f"{why} ({os.path.basename(path)})"))
    # test_progs merges "T" and "T/SUB" into one entry that denies only
    # SUB: a test denied whole must have no subtest entry.
    whole = {name for name, _ in entries if "/" not in name}
    print(f"# test_progs -d @FILE, from {skips} and {' '.join(denylists)} (tests/selftests.py deny)")
    for name, why in entries:
        if "/" in name and name.partition("/")[0] in whole:
            continue
        print(f"{name}\t# {why}")
    return 0
