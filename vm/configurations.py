"""The boot configurations of vm/configurations: name -> (variant, boot arguments).

tests/ and benchmarks/ name configurations; this module is where a name
becomes a kernel variant and the arguments to boot it with (the shell asks
its command line: vm/configurations.py NAME).
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


def read(path=CONFIGURATIONS, variants_path=VARIANTS):
    """{name: (variant, boot_args)} in file order ("" for no arguments)."""
    variants = names_in(variants_path)
    configs = {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if not line.strip() or line.startswith("#"):
                continue
            fields = line.split(None, 2)
            if len(fields) < 3:
                raise Error(f"{path}:{n}: want 'name variant boot-arguments' ('-' for none)")
            name, variant, args = fields[0], fields[1], fields[2].strip()
            if variant not in variants:
                raise Error(f"{path}:{n}: unknown variant '{variant}' (valid: {' '.join(variants)})")
            if name in configs:
                raise Error(f"{path}:{n}: configuration '{name}' named twice")
            configs[name] = (variant, "" if args == "-" else args)
    if not configs:
        raise Error(f"{path}: no configurations")
    return configs


def main(argv):
    """vm/configurations.py NAME: prints 'VARIANT BOOT-ARGUMENTS' (for the shell)."""
    if len(argv) != 2:
        sys.exit("usage: vm/configurations.py NAME")
    try:
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
