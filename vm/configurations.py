"""The one reader of vm/variants and vm/configurations.

vm/variants: kernel variant -> the tree it builds from (pristine or series).
vm/configurations: boot configuration -> (variant, boot arguments). Callers
name configurations and variants; this module is where a name becomes a
kernel variant, its source and the arguments to boot it with. The shell and
the Makefile ask its command line:
  vm/configurations.py NAME               VARIANT BOOT-ARGUMENTS
  vm/configurations.py --variants         the variant names, one a line
  vm/configurations.py --source VARIANT   its source (pristine or series)
"""
import os
import sys

VM = os.path.dirname(os.path.abspath(__file__))
CONFIGURATIONS = os.path.join(VM, "configurations")
VARIANTS = os.path.join(VM, "variants")


class Error(Exception):
    """A configurations file that cannot be read as one; says where and why."""


def names_in(path):
    """The first field of each line of PATH that is not blank or a comment."""
    with open(path) as f:
        return [line.split()[0] for line in f if line.strip() and not line.startswith("#")]


SOURCES = ("pristine", "series")


def variants(path=VARIANTS):
    """{variant: source} in file order."""
    out = {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if not line.strip() or line.startswith("#"):
                continue
            fields = line.split()
            if len(fields) < 2 or fields[1] not in SOURCES:
                raise Error(f"{path}:{n}: want 'name source description' (source: "
                            f"{' or '.join(SOURCES)})")
            if fields[0] in out:
                raise Error(f"{path}:{n}: variant '{fields[0]}' named twice")
            out[fields[0]] = fields[1]
    return out


def read(path=CONFIGURATIONS, variants_path=VARIANTS):
    """{name: (variant, boot_args)} in file order ("" for no arguments)."""
    known = list(variants(variants_path))
    configs = {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if not line.strip() or line.startswith("#"):
                continue
            fields = line.split(None, 2)
            if len(fields) < 3:
                raise Error(f"{path}:{n}: want 'name variant boot-arguments' ('-' for none)")
            name, variant, args = fields[0], fields[1], fields[2].strip()
            if variant not in known:
                raise Error(f"{path}:{n}: unknown variant '{variant}' (valid: {' '.join(known)})")
            if name in configs:
                raise Error(f"{path}:{n}: configuration '{name}' named twice")
            configs[name] = (variant, "" if args == "-" else args)
    if not configs:
        raise Error(f"{path}: no configurations")
    return configs


def main(argv):
    """vm/configurations.py NAME: prints 'VARIANT BOOT-ARGUMENTS' (for the shell);
    --variants: the variant names; --source VARIANT: its source."""
    usage = ("usage: vm/configurations.py NAME | --variants | --source VARIANT")
    try:
        if argv[1:] == ["--variants"]:
            print("\n".join(variants()))
            return 0
        if len(argv) == 3 and argv[1] == "--source":
            known = variants()
            if argv[2] not in known:
                sys.exit(f"configurations: error: unknown variant '{argv[2]}'"
                         f" (valid: {' '.join(known)}; vm/variants)")
            print(known[argv[2]])
            return 0
        if len(argv) != 2 or argv[1].startswith("-"):
            sys.exit(usage)
        configs = read()
    except Error as e:
        sys.exit(f"configurations: error: {e}")
    if argv[1] not in configs:
        sys.exit(f"configurations: error: unknown configuration '{argv[1]}'"
                 f" (valid: {' '.join(configs)}; vm/configurations)")
    variant, args = configs[argv[1]]
    print(variant, args)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
