"""benchmarks/run's pure parts: configurations, names, samples, determinism."""
import importlib.machinery
import importlib.util
import json
import os
import re
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
_loader = importlib.machinery.SourceFileLoader("bench_run", os.path.join(HERE, "..", "run"))
_spec = importlib.util.spec_from_loader("bench_run", _loader)
run = importlib.util.module_from_spec(_spec)
_loader.exec_module(run)


def write(tmp, name, text):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write(text)
    return path


KNOWN = {"base": ("vanilla", ""), "ab": ("series", "foo=1 bar=off")}


class Configurations(unittest.TestCase):
    def read(self, text):
        with tempfile.TemporaryDirectory() as tmp:
            return run.read_configurations(write(tmp, "c", text), KNOWN)[0]

    def pairs(self, text):
        with tempfile.TemporaryDirectory() as tmp:
            return run.read_configurations(write(tmp, "c", text), KNOWN)[1]

    def refusal(self, text):
        """What read_configurations says of TEXT, which it must refuse."""
        with self.assertRaises(SystemExit) as e:
            self.read(text)
        return str(e.exception)

    def test_the_repository_file_starts_with_its_baseline(self):
        configs, pairs = run.read_configurations()
        self.assertEqual(next(iter(configs)), "vanilla")
        # The whole series against the region alone, and the region alone
        # against 6.12's layout: one image booted three ways.
        self.assertIn(("series", "series-wp-off"), pairs)
        self.assertIn(("series-wp-off", "series-region-off"), pairs)
        self.assertEqual(configs["series"], ("series", ""))
        self.assertEqual(configs["series-wp-off"], ("series", "bpf_jit_wp=off"))
        self.assertEqual(configs["series-region-off"], ("series", "bpf_jit_region=off"))

    def test_names_resolve_in_order(self):
        self.assertEqual(list(self.read("# x\nab\nbase\n").items()),
                         [("ab", ("series", "foo=1 bar=off")), ("base", ("vanilla", ""))])

    def test_unknown_name_names_the_valid_ones(self):
        said = self.refusal("base\nnosuch\n")
        self.assertIn(":2: unknown configuration 'nosuch'", said)
        self.assertIn("base ab", said)

    def test_a_name_twice_is_refused(self):
        self.assertIn("named twice", self.refusal("base\nbase\n"))

    def test_the_second_column_pairs_two_configurations(self):
        self.assertEqual(self.pairs("base\nab base\n"), [("ab", "base")])
        self.assertEqual(self.pairs("base\nab\n"), [])
        self.assertIn("'ab' is to be compared with 'nosuch'", self.refusal("base\nab nosuch\n"))
        self.assertIn("(valid: base)", self.refusal("base\nab ab\n"))
        self.assertIn("at most one", self.refusal("base\nab base x\n"))


class Names(unittest.TestCase):
    def test_pick_defaults_to_all_and_checks(self):
        self.assertEqual(run.pick("workload", None, run.WORKLOADS), list(run.WORKLOADS))
        self.assertEqual(run.pick("workload", "mem,call", run.WORKLOADS), ["mem", "call"])
        with self.assertRaises(SystemExit) as e:
            run.pick("workload", "mem,nosuch", run.WORKLOADS)
        self.assertIn("unknown workload 'nosuch' (valid: call, load, attach, mem, tlb, fill, conc)",
                      str(e.exception))

    def test_the_fill_file_names_region_sizes(self):
        fill, _ = run.read_configurations(run.FILL_CONFIGURATIONS)
        self.assertGreaterEqual(len(fill), 3)
        for variant, args in fill.values():
            self.assertEqual(variant, "series")
            self.assertRegex(args, r"^bpf_jit_region=\d+M$")

    def test_every_profile_names_known_workloads(self):
        for name, p in run.PROFILES.items():
            for clock in ("icount", "wall"):
                self.assertLessEqual(set(p[clock]), set(run.WORKLOADS), name)

    def test_sizes_are_checked_and_replace_the_profiles(self):
        self.assertEqual(run.parse_sizes("8,4096"), [8, 4096])
        for bad in ("8,x", "4", "8,,16", "-8"):
            with self.assertRaises(SystemExit) as e:
                run.parse_sizes(bad)
            self.assertIn("from 8 to 1000000", str(e.exception))
        p = run.with_sizes(run.PROFILES["quick"], [16, 32])
        for clock in ("icount", "wall"):
            self.assertIn("--sizes 16,32 ", p[clock]["load"])
        self.assertIn("--sizes 8,512,", run.PROFILES["quick"]["icount"]["load"])

    def test_rounds_are_checked_and_replace_the_load_rounds(self):
        self.assertEqual(run.parse_rounds("31"), 31)
        for bad in ("0", "x", "-1", "1001", ""):
            with self.assertRaises(SystemExit) as e:
                run.parse_rounds(bad)
            self.assertIn("valid: 1 to 1000", str(e.exception))
        p = run.with_rounds(run.PROFILES["quick"], 31)
        for clock in ("icount", "wall"):
            self.assertIn("--rounds 31 ", p[clock]["load"])
            self.assertEqual(p[clock]["call"], run.PROFILES["quick"][clock]["call"])
        self.assertIn("--rounds 11 ", run.PROFILES["quick"]["icount"]["load"])

    def test_guest_command_keeps_each_status(self):
        cmd = run.guest_command(["call", "mem"], {"call": "--rounds 1", "mem": "--counts 1"})
        self.assertEqual(cmd, "/tests/bench call --rounds 1 >call.csv; echo $? >call.rc; "
                              "/tests/bench mem --counts 1 >mem.csv; echo $? >mem.rc")


class Plan(unittest.TestCase):
    PROFILE = {"icount": {"call": "", "mem": ""}, "wall": {"call": "", "fill": "--rounds 3"},
               "wall_boots": 2}

    def plan(self, names, workloads=("call", "mem", "fill"), clocks=("icount", "wall")):
        return [p[:4] for p in run.plan_boots(names, {"f8": 1, "f16": 1}, list(workloads),
                                              list(clocks), self.PROFILE)]

    def test_icount_twice_then_wall_interleaved_then_fill_once(self):
        self.assertEqual(self.plan(["a", "b", "f8", "f16"]), [
            ("a", "icount", 0, ["call", "mem"]), ("b", "icount", 0, ["call", "mem"]),
            ("a", "icount", 1, ["call", "mem"]), ("b", "icount", 1, ["call", "mem"]),
            ("a", "wall", 0, ["call"]), ("b", "wall", 0, ["call"]),
            ("a", "wall", 1, ["call"]), ("b", "wall", 1, ["call"]),
            ("f8", "wall", 0, ["fill"]), ("f16", "wall", 0, ["fill"])])

    def test_fill_configurations_run_nothing_else(self):
        self.assertEqual(self.plan(["f8"], workloads=("call",)), [])
        self.assertEqual(self.plan(["a", "f8"], workloads=("fill",)), [("f8", "wall", 0, ["fill"])])

    def test_fill_needs_the_wall_clock(self):
        self.assertEqual(self.plan(["f8"], clocks=("icount",)), [])

    def test_conc_boots_once_per_configuration_after_icount(self):
        profile = dict(self.PROFILE, conc={"conc": "--rounds 2"})
        plan = [p[:4] for p in run.plan_boots(["a", "b", "f8"], {"f8": 1},
                                              ["call", "conc"], ["icount", "wall"], profile)]
        self.assertEqual(plan, [
            ("a", "icount", 0, ["call"]), ("b", "icount", 0, ["call"]),
            ("a", "icount", 1, ["call"]), ("b", "icount", 1, ["call"]),
            ("a", "icount", 0, ["conc"]), ("b", "icount", 0, ["conc"]),
            ("a", "icount", 1, ["conc"]), ("b", "icount", 1, ["conc"]),
            ("a", "wall", 0, ["call"]), ("b", "wall", 0, ["call"]),
            ("a", "wall", 1, ["call"]), ("b", "wall", 1, ["call"])])

    def test_conc_boots_have_more_vcpus_and_a_directory_of_their_own(self):
        self.assertEqual(run.boot_smp(["conc"]), 4)
        self.assertEqual(run.boot_smp(["call", "load"]), run.GUEST["smp"])
        self.assertEqual(run.boot_dir_name("a", "icount", 0, ["conc"]), "a-icount-0-smp4")
        self.assertEqual(run.boot_dir_name("a", "icount", 0, ["call"]), "a-icount-0")


def rec(config, boot, workloads, d):
    return {"config": config, "clock": "icount", "boot": boot, "workloads": workloads, "dir": d}


class Samples(unittest.TestCase):
    def test_rows_get_their_boot_and_plugin_counts(self):
        with tempfile.TemporaryDirectory() as tmp:
            os.makedirs(os.path.join(tmp, "b"))
            write(tmp, "b/call.csv", "call,bpf_loop,,call_ns,ns,0,0,23.000\nbad,row\n")
            write(tmp, "b/tlb.csv", "tlb,load_new_pack,64,mark_pair,index,0,0,1\n"
                                    "tlb,load_new_pack,64,ipi,count,0,0,7\n")
            marks = [{"tlbi": 0, "dsb": 1}, {"tlbi": 0, "dsb": 1},
                     {"tlbi": 10, "tlbi.vale1is": 4, "dsb": 5, "dsb.ish": 2},
                     {"tlbi": 1546, "tlbi.vale1is": 4, "dsb": 3130, "dsb.ish": 530}]
            write(tmp, "b/plugin.jsonl", "".join(
                json.dumps({"seq": i, "vcpu": 0, "counts": c}) + "\n" for i, c in enumerate(marks)))
            rows = run.boot_rows(tmp, rec("series", 0, ["call", "tlb"], "b"))
        got = {(r["workload"], r["metric"]): r["value"] for r in rows}
        self.assertEqual(got[("call", "call_ns")], "23.000")
        self.assertEqual(got[("tlb", "tlbi")], "1536")
        self.assertEqual(got[("tlb", "dsb.ish")], "528")
        self.assertEqual(got[("tlb", "ipi")], "7")
        self.assertNotIn(("tlb", "tlbi.vale1is"), got)  # not executed in the window
        self.assertNotIn(("tlb", "mark_pair"), got)
        self.assertTrue(all(r["config"] == "series" and r["boot"] == 0 for r in rows))
        self.assertEqual(len([r for r in rows if r["workload"] == "call"]), 1)


class Determinism(unittest.TestCase):
    def row(self, boot, value, workload="call", config="series"):
        return {"config": config, "clock": "icount", "boot": boot, "workload": workload,
                "case": "bpf_loop", "x": "", "metric": "call_ns", "round": "0", "value": value}

    def test_identical(self):
        d = run.determinism([self.row(0, "28.017"), self.row(1, "28.017")], ["call"])
        self.assertEqual((d["checked"], d["identical"], d["compared"]), (True, True, 1))

    def test_a_difference_is_named(self):
        d = run.determinism([self.row(0, "28.017"), self.row(1, "28.074")], ["call"])
        self.assertFalse(d["identical"])
        self.assertIn("28.017 vs 28.074", d["differing"][0])

    def test_other_workloads_and_lone_boots_are_not_compared(self):
        d = run.determinism([self.row(0, "1", "mem"), self.row(1, "2", "mem"),
                             self.row(0, "3")], ["call"])
        self.assertEqual((d["checked"], d["identical"], d["compared"]), (False, False, 0))



class RunDirFileTest(unittest.TestCase):
    """--run-dir-file names the run directory as soon as it exists, so that
    make bench analyses that run even when a boot dies halfway."""

    def test_written_before_the_first_boot(self):
        class Stop(Exception):
            pass

        seen = {}

        def boot(run_dir, *args):
            with open(seen["file"]) as f:
                seen["named"] = f.read().strip()
            seen["run_dir"] = run_dir
            raise Stop()

        saved = run.boot, run.check_kernel, run.subprocess.run, run.metadata.start
        run.boot, run.check_kernel = boot, lambda *a: None
        run.metadata.start = lambda: {"project": {}, "series": {}}
        run.subprocess.run = lambda *a, **k: type("P", (), {"stdout": "kvm: unavailable, test"})()
        try:
            with tempfile.TemporaryDirectory() as tmp:
                seen["file"] = os.path.join(tmp, "run-dir")
                with self.assertRaises(Stop):
                    run.main(["--no-build", "--configs", "vanilla", "--workloads", "call",
                              "--clocks", "wall", "--results", os.path.join(tmp, "r"),
                              "--run-dir-file", seen["file"]])
                self.assertEqual(seen["named"], seen["run_dir"])
                self.assertTrue(os.path.isdir(seen["named"]))
        finally:
            run.boot, run.check_kernel, run.subprocess.run, run.metadata.start = saved


class CheckKernelTest(unittest.TestCase):
    def test_no_kernel_is_one_clear_line(self):
        saved = run.BUILD
        with tempfile.TemporaryDirectory() as tmp:
            run.BUILD = tmp
            try:
                with self.assertRaises(SystemExit) as cm:
                    run.check_kernel("vanilla", "vanilla", ["call"])
            finally:
                run.BUILD = saved
        msg = str(cm.exception)
        self.assertIn("no vanilla kernel at", msg)
        self.assertIn("make kernel VARIANT=vanilla", msg)
        self.assertEqual(msg.count("\n"), 0)


if __name__ == "__main__":
    unittest.main()


class SchemaTest(unittest.TestCase):
    """The runner writes the columns of results/bench/samples.schema, and the guest's
    bench prints its last eight (bench.h says which)."""

    def test_runner_and_guest_follow_the_schema(self):
        self.assertEqual(run.CSV_HEADER[:3], ["config", "clock", "boot"])
        src = os.path.join(run.TOP, "benchmarks", "guest", "src", "bench")
        with open(os.path.join(src, "bench.h")) as f:
            self.assertIn(" *   " + ",".join(run.GUEST_COLUMNS) + "\n", f.read())
        # What row() prints: each of its printf formats has one field per guest column.
        with open(os.path.join(src, "main.c")) as f:
            body = f.read().split("void row(", 1)[1].split("\n}\n", 1)[0]
        formats = re.findall(r'printf\("([^"]*)\\n"', body)
        self.assertEqual(len(formats), 2, body)
        for fmt in formats:
            self.assertEqual(fmt.count(",") + 1, len(run.GUEST_COLUMNS), fmt)
