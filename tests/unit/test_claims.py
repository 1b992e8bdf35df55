"""The README and the cover letter quote runs as analysis/claims words them.

Each line of tests/claims.tsv names a document, a committed run and a pair of
its configurations; the document must contain, whitespace aside (the text is
wrapped, or quoted), the sentence analysis/claims generates from the run today. A
figure edited by hand, or a run re-analysed differently, fails here.
"""
import os
import re
import subprocess
import sys
import unittest

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LIST = os.path.join(TOP, "tests", "claims.tsv")


def entries():
    out = []
    with open(LIST) as f:
        for n, line in enumerate(f, 1):
            if not line.strip() or line.startswith("#"):
                continue
            fields = line.split()
            if len(fields) != 3:
                raise ValueError(f"{LIST}:{n}: wants DOCUMENT RUN PAIR, got {line.strip()!r}")
            out.append((n, *fields))
    return out


def words(text):
    """The text's words, whitespace and Markdown quote markers ("> ") aside."""
    return " ".join(re.sub(r"(?m)^\s*> ?", "", text).split())


class ClaimsTest(unittest.TestCase):
    def test_list_parses(self):
        self.assertGreater(len(entries()), 0, f"{LIST} lists no sentence")

    def test_documents_say_what_the_runs_give(self):
        for n, doc, run, pair in entries():
            with self.subTest(line=n, document=doc, run=run, pair=pair):
                self.assertTrue(os.path.isdir(os.path.join(TOP, run)), f"no run {run}")
                how = (["--claim", pair] if pair in ("sizing", "tune", "pmu") or ":" in pair
                       else ["--pair", pair])
                proc = subprocess.run([sys.executable, os.path.join(TOP, "analysis", "claims"),
                                       os.path.join(TOP, run)] + how,
                                      capture_output=True, text=True, timeout=600)
                self.assertEqual(proc.returncode, 0, proc.stderr)
                with open(os.path.join(TOP, doc)) as f:
                    text = words(f.read())
                sentence = words(proc.stdout)
                self.assertTrue(sentence, "analysis/claims printed nothing")
                if sentence not in text:
                    self.fail(f"{doc} does not say what {run} gives for {pair}"
                              f" (analysis/claims {run} --pair {pair}):\n{sentence}")


if __name__ == "__main__":
    unittest.main()
