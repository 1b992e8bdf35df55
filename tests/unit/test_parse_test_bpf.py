"""selftests.py's test_bpf parser: a verdict that another kernel message
split from its test's line still belongs to that test."""
import unittest

import selftests_logs

LOG = """\
test_bpf: #0 TAX jited:1 324 353 150 PASS
test_bpf: #1 ALU64_REG_XOR to R8: no clobbering 
hrtimer: interrupt took 19977760 ns
jited:1 209 PASS
test_bpf: #2 ALU64_REG_XOR to R9: no clobbering jited:1 293 PASS
test_bpf: #3 LD_ABS 
test_bpf: #4 LD_IND jited:1 FAIL (1 times)
test_bpf: Summary: 3 PASSED, 2 FAILED, [3/3 JIT'ed]
test_bpf: test_skb_segment: Summary: 2 PASSED, 0 FAILED
"""


class ParseTestBpfTest(unittest.TestCase):
    def setUp(self):
        rows, _ = selftests_logs.parse_test_bpf(LOG, {})
        self.status = {name: status for name, status, _, _ in rows}

    def test_a_verdict_split_by_another_message_is_its_tests(self):
        self.assertEqual(self.status["test_bpf/#1 ALU64_REG_XOR to R8: no clobbering"], "PASS")

    def test_whole_lines_parse_as_before(self):
        self.assertEqual(self.status["test_bpf/#0 TAX"], "PASS")
        self.assertEqual(self.status["test_bpf/#2 ALU64_REG_XOR to R9: no clobbering"], "PASS")
        self.assertEqual(self.status["test_bpf/#4 LD_IND"], "FAIL")

    def test_a_test_without_a_verdict_fails(self):
        self.assertEqual(self.status["test_bpf/#3 LD_ABS"], "FAIL")


if __name__ == "__main__":
    unittest.main()
