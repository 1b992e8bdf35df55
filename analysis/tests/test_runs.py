"""runs: finding and loading a run, and the errors for what is wrong with one."""
import json
import os
import unittest

import runs
from tests import helpers


class LoadTest(unittest.TestCase):
    def test_loads_fixture(self):
        run = runs.load(helpers.OK)
        self.assertEqual(run.run_id, "20260101-120000-quick")
        self.assertEqual(run.baseline, "vanilla")
        self.assertEqual(run.configs, ["vanilla", "series"])
        self.assertEqual(run.clocks, ["icount", "wall"])
        self.assertTrue(any(s.warmup for s in run.samples))
        self.assertFalse(any(s.warmup for s in run.measured))
        self.assertEqual(len(run.failed_boots), 0)
        s = run.samples[0]
        self.assertIsInstance(s.value, float)
        self.assertIsInstance(s.boot, int)

    def test_failed_configuration_loads(self):
        run = runs.load(helpers.FAILED)
        self.assertEqual(run.configs, ["vanilla", "series", "series-region"])
        self.assertEqual({b["config"] for b in run.failed_boots}, {"series-region"})


class LatestTest(unittest.TestCase):
    def setUp(self):
        self.scratch = helpers.Scratch()

    def tearDown(self):
        self.scratch.cleanup()

    def test_latest_is_newest_with_metadata(self):
        self.scratch.copy(helpers.OK)
        self.scratch.copy(helpers.FAILED)
        unfinished = os.path.join(self.scratch.root, "20270101-000000-quick")
        os.makedirs(unfinished)
        os.makedirs(os.path.join(self.scratch.root, "not-a-run"))
        notes = []
        path = runs.latest(self.scratch.root, note=notes.append)
        self.assertEqual(os.path.basename(path), "20260102-120000-quick")
        self.assertEqual(len(notes), 1)
        self.assertIn("20270101-000000-quick", notes[0])
        self.assertIn("no metadata.json", notes[0])

    def test_complete_skips_runs_with_failed_boots(self):
        self.scratch.copy(helpers.OK)
        self.scratch.copy(helpers.FAILED)
        notes = []
        path = runs.latest(self.scratch.root, note=notes.append, complete=True)
        self.assertEqual(os.path.basename(path), "20260101-120000-quick")
        self.assertIn("20260102-120000-quick: 4 boot(s) failed", notes[0])
        self.assertEqual(runs.latest_by_workload(self.scratch.root),
                         {w: "20260101-120000-quick"
                          for w in json.load(open(os.path.join(helpers.OK, "metadata.json")))
                          .get("workloads", [])})

    def test_no_complete_runs(self):
        self.scratch.copy(helpers.FAILED)
        with self.assertRaises(runs.RunError) as e:
            runs.latest(self.scratch.root, complete=True)
        self.assertIn("no complete runs", str(e.exception))

    def test_no_runs(self):
        with self.assertRaises(runs.RunError) as e:
            runs.latest(self.scratch.root)
        self.assertIn("no runs", str(e.exception))
        self.assertIn("YYYYMMDD-HHMMSS", str(e.exception))

    def test_missing_root(self):
        with self.assertRaises(runs.RunError) as e:
            runs.latest(os.path.join(self.scratch.root, "nope"))
        self.assertIn("no such results directory", str(e.exception))


class ErrorTest(unittest.TestCase):
    """Each error names the file, the line where there is one, and what is valid."""

    def setUp(self):
        self.scratch = helpers.Scratch()

    def tearDown(self):
        self.scratch.cleanup()

    def error(self, path):
        with self.assertRaises(runs.RunError) as e:
            runs.load(path)
        return str(e.exception)

    def test_missing_dir_lists_valid_runs(self):
        self.scratch.copy(helpers.OK)
        path = os.path.join(self.scratch.root, "20990101-000000-quick")
        msg = self.error(path)
        self.assertIn(path, msg)
        self.assertIn("no such run directory", msg)
        self.assertIn("20260101-120000-quick", msg)

    def test_missing_metadata(self):
        msg = self.error(helpers.NOMETA)
        self.assertIn(os.path.join(helpers.NOMETA, "metadata.json"), msg)
        self.assertIn("missing", msg)
        self.assertIn("samples.csv", msg)

    def test_bad_header(self):
        msg = self.error(helpers.MALFORMED)
        self.assertIn(os.path.join(helpers.MALFORMED, "samples.csv") + ":1", msg)
        self.assertIn("bad header", msg)
        self.assertIn(",".join(runs.HEADER), msg)

    def test_missing_samples(self):
        path = self.scratch.copy(helpers.OK)
        os.remove(os.path.join(path, "samples.csv"))
        msg = self.error(path)
        self.assertIn("samples.csv", msg)
        self.assertIn("missing", msg)

    def rewrite_line(self, path, line, text):
        csv_path = os.path.join(path, "samples.csv")
        with open(csv_path) as f:
            lines = f.read().split("\n")
        lines[line - 1] = text
        with open(csv_path, "w") as f:
            f.write("\n".join(lines))
        return csv_path

    def test_bad_value_names_line(self):
        path = self.scratch.copy(helpers.OK)
        csv_path = self.rewrite_line(path, 3, "vanilla,icount,0,call,bpf_loop,,call_ns,ns,1,0,abc")
        msg = self.error(path)
        self.assertIn(f"{csv_path}:3", msg)
        self.assertIn("'value' is 'abc'", msg)

    def test_wrong_field_count(self):
        path = self.scratch.copy(helpers.OK)
        csv_path = self.rewrite_line(path, 5, "vanilla,icount,0,call")
        msg = self.error(path)
        self.assertIn(f"{csv_path}:5", msg)
        self.assertIn("4 fields, expected 11", msg)

    def test_unknown_configuration(self):
        path = self.scratch.copy(helpers.OK)
        self.rewrite_line(path, 2, "mystery,icount,0,call,bpf_loop,,call_ns,ns,1,0,1.0")
        msg = self.error(path)
        self.assertIn(":2:", msg)
        self.assertIn("unknown configuration 'mystery'", msg)
        self.assertIn("vanilla, series", msg)

    def test_bad_warmup_and_round(self):
        path = self.scratch.copy(helpers.OK)
        self.rewrite_line(path, 2, "vanilla,icount,0,call,bpf_loop,,call_ns,ns,1,yes,1.0")
        self.assertIn("'warmup' is 'yes', expected 0 or 1", self.error(path))
        self.rewrite_line(path, 2, "vanilla,icount,0,call,bpf_loop,,call_ns,ns,one,0,1.0")
        self.assertIn("'round' is 'one', expected an integer", self.error(path))

    def write_meta(self, path, meta=None, text=None):
        with open(os.path.join(path, "metadata.json"), "w") as f:
            f.write(text if text is not None else json.dumps(meta))

    def test_malformed_metadata_json(self):
        path = self.scratch.copy(helpers.OK)
        self.write_meta(path, text='{\n "run_id": "x",\n oops\n}')
        msg = self.error(path)
        self.assertIn("metadata.json:3", msg)
        self.assertIn("not valid JSON", msg)

    def test_metadata_missing_key(self):
        path = self.scratch.copy(helpers.OK)
        with open(os.path.join(path, "metadata.json")) as f:
            meta = json.load(f)
        del meta["baseline"]
        self.write_meta(path, meta)
        msg = self.error(path)
        self.assertIn("missing key 'baseline'", msg)
        self.assertIn("run_id, baseline, configurations, boots", msg)

    def test_metadata_baseline_not_a_configuration(self):
        path = self.scratch.copy(helpers.OK)
        with open(os.path.join(path, "metadata.json")) as f:
            meta = json.load(f)
        meta["baseline"] = "stock"
        self.write_meta(path, meta)
        msg = self.error(path)
        self.assertIn("baseline 'stock' is not a configuration (valid: vanilla, series)", msg)

    def test_header_only_run_loads(self):
        path = self.scratch.copy(helpers.OK, keep=lambda r: False)
        run = runs.load(path)
        self.assertEqual(run.samples, [])


class FixturesUntouchedTest(unittest.TestCase):
    def test_fixture_dirs_hold_only_inputs(self):
        for run in (helpers.OK, helpers.FAILED):
            self.assertEqual(helpers.tree_files(run), ["metadata.json", "samples.csv"])


class NewKeysTest(unittest.TestCase):
    """metadata "pairs" and "fill_configurations": optional, checked, and what they change."""

    def setUp(self):
        self.scratch = helpers.Scratch()
        self.path = self.scratch.copy(helpers.FILL)
        with open(os.path.join(self.path, "metadata.json")) as f:
            self.meta = json.load(f)

    def tearDown(self):
        self.scratch.cleanup()

    def error_with(self, **keys):
        meta = dict(self.meta, **keys)
        with open(os.path.join(self.path, "metadata.json"), "w") as f:
            json.dump(meta, f)
        with self.assertRaises(runs.RunError) as e:
            runs.load(self.path)
        return str(e.exception)

    def test_fill_configurations_left_out_of_configs(self):
        run = runs.load(helpers.FILL)
        self.assertEqual(run.configs, ["vanilla", "series", "series-region-off"])
        self.assertEqual(run.fill_configs, ["series-region-4m", "series-region-8m",
                                            "series-region-16m", "series-region-32m"])
        self.assertEqual(run.pairs, [("series", "series-region-off")])
        self.assertTrue(run.fill)
        self.assertEqual({s.workload for s in run.fill}, {"fill"})
        self.assertFalse(any(s.workload == "fill" or s.config in run.fill_configs
                             for s in run.ordinary))
        self.assertEqual(run.clocks, ["icount", "wall"])

    def test_older_runs_default_to_empty(self):
        run = runs.load(helpers.OK)
        self.assertEqual((run.pairs, run.fill_configs), ([], []))
        self.assertEqual(run.ordinary, run.measured)
        self.assertEqual(run.fill, [])

    def test_pair_naming_an_unknown_configuration(self):
        msg = self.error_with(pairs=[["series", "stock"]])
        self.assertIn('pair ["series", "stock"] must name two distinct configurations', msg)
        self.assertIn("valid names: vanilla, series, series-region-off", msg)

    def test_pair_of_one_configuration_or_a_fill_one(self):
        self.assertIn('pair ["series", "series"]', self.error_with(pairs=[["series", "series"]]))
        msg = self.error_with(pairs=[["series", "series-region-8m"]])
        self.assertIn("that are not fill configurations", msg)

    def test_pair_malformed(self):
        msg = self.error_with(pairs=[["series"]])
        self.assertIn('pair ["series"] is not [config, reference]', msg)
        self.assertIn("'pairs' must be a list", self.error_with(pairs={"series": "vanilla"}))

    def test_fill_configuration_unknown_or_twice(self):
        msg = self.error_with(fill_configurations=["series-region-64m"])
        self.assertIn("fill configuration 'series-region-64m' is not a configuration", msg)
        self.assertIn("valid: vanilla, series, series-region-off, series-region-4m", msg)
        msg = self.error_with(fill_configurations=["series-region-4m", "series-region-4m"])
        self.assertIn("'series-region-4m' is named twice", msg)
        self.assertIn("must be a list", self.error_with(fill_configurations="series-region-4m"))

    def test_baseline_cannot_be_a_fill_configuration(self):
        msg = self.error_with(baseline="series-region-4m")
        self.assertIn("baseline 'series-region-4m' is a fill configuration", msg)

    def test_fill_only_run_needs_no_baseline(self):
        """benchmarks/run --configs with fill configurations alone: the baseline is not booted."""
        fill = self.meta["fill_configurations"]
        meta = dict(self.meta, pairs=[],
                    configurations={c: self.meta["configurations"][c] for c in fill})
        path = self.scratch.copy(helpers.FILL, name="20260106-120000-quick",
                                 keep=lambda r: r["config"] in fill)
        with open(os.path.join(path, "metadata.json"), "w") as f:
            json.dump(meta, f)
        run = runs.load(path)
        self.assertEqual(run.configs, [])
        self.assertEqual(run.baseline, "vanilla")
        meta["configurations"]["series"] = {"variant": "series"}
        self.assertIn("baseline 'vanilla' is not a configuration (valid: series)",
                      self.error_with(**meta))


class SchemaTest(unittest.TestCase):
    """samples.csv has one definition (results/bench/samples.schema): every fixture
    and every committed run follows it."""

    def test_fixtures_and_committed_runs_follow_the_schema(self):
        top = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        fixtures = os.path.join(top, "analysis", "tests", "fixtures")
        dirs = [os.path.join(fixtures, f, r) for f in os.listdir(fixtures)
                for r in os.listdir(os.path.join(fixtures, f))]
        committed = os.path.join(top, "results", "bench")
        dirs += [os.path.join(committed, r) for r in runs.list_runs(committed)]
        checked = 0
        for d in dirs:
            path = os.path.join(d, "samples.csv")
            if not os.path.isfile(path) or "malformed" in d:
                continue
            with open(path) as f:
                self.assertEqual(f.readline().strip().split(","), runs.HEADER, path)
            checked += 1
        self.assertGreater(checked, 10)
        self.assertEqual(list(runs.Sample._fields), runs.HEADER)
