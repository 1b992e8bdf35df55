// SPDX-License-Identifier: GPL-2.0
/*
 * C calls JITed BPF callbacks through function pointers: a bpf_loop()
 * callback the verifier does not inline, and a bpf_for_each_map_elem()
 * callback. Both must run and compute the right result; a missing or wrong
 * kCFI hash traps (series) or is reported (vanilla-cfi, permissive).
 */
#include <stdio.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "ktest.h"

struct cfi_results {
	__u64 loop_flags;
	__u64 loop_sum;
	__u64 each_sum;
};

/*
 * The number of helper calls left in a loaded program: an inlined bpf_loop()
 * leaves none, a bpf_loop() the verifier kept leaves its helper call.
 */
static int helper_calls(int fd)
{
	struct bpf_insn insns[512];
	struct bpf_prog_info info = {
		.xlated_prog_len = sizeof(insns),
		.xlated_prog_insns = (unsigned long)insns,
	};
	__u32 len = sizeof(info), i;
	int n = 0;

	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		return -1;
	for (i = 0; i < info.xlated_prog_len / sizeof(insns[0]); i++)
		if (insns[i].code == (BPF_JMP | BPF_CALL) && insns[i].src_reg == 0)
			n++;
	return n;
}

int main(void)
{
	struct bpf_object *obj = ktest_load("cfi_callbacks");
	struct bpf_map *values = bpf_object__find_map_by_name(obj, "values");
	unsigned int retval;
	struct cfi_results res;
	__u64 sum = 0, v;
	__u32 k;
	int ok = 1;

	ok &= EXPECT_EQ("helper calls in loop_not_inlined (bpf_loop kept)",
			helper_calls(bpf_program__fd(ktest_prog(obj, "loop_not_inlined"))), 1);
	if (ktest_test_run_skb(ktest_prog(obj, "loop_not_inlined"), 1, &retval, NULL))
		return 1;
	ok &= EXPECT_EQ("bpf_loop iterations", retval, 10);
	if (ktest_read_bss(obj, &res, sizeof(res)))
		return 1;
	ok &= EXPECT_EQ("bpf_loop callback sum of 0..9", res.loop_sum, 45);

	for (k = 0; k < 4; k++) {
		v = 100 + k;
		sum += v;
		bpf_map_update_elem(bpf_map__fd(values), &k, &v, BPF_ANY);
	}
	if (ktest_test_run_skb(ktest_prog(obj, "for_each_elem"), 1, &retval, NULL))
		return 1;
	ok &= EXPECT_EQ("bpf_for_each_map_elem elements", retval, 4);
	if (ktest_read_bss(obj, &res, sizeof(res)))
		return 1;
	ok &= EXPECT_EQ("bpf_for_each_map_elem callback sum", res.each_sum, sum);

	bpf_object__close(obj);
	return ok ? 0 : 1;
}
