// SPDX-License-Identifier: GPL-2.0
/*
 * A libbpf-loaded program is JITed and runs through BPF_PROG_TEST_RUN (the
 * dispatcher path) with the expected return value, once and repeated.
 */
#include <stdio.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "ktest.h"

int main(void)
{
	struct bpf_prog_info info;
	__u32 len = sizeof(info);
	struct bpf_program *prog;
	struct bpf_object *obj;
	unsigned int retval, duration;
	int ok = 1;

	obj = ktest_load("prog_run");
	prog = ktest_prog(obj, "len_plus_seven");

	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(bpf_program__fd(prog), &info, &len)) {
		printf("FAIL: BPF_OBJ_GET_INFO_BY_FD\n");
		return 1;
	}
	printf("jited_prog_len %u, xlated_prog_len %u\n",
	       info.jited_prog_len, info.xlated_prog_len);
	ok &= info.jited_prog_len > 0;

	if (ktest_test_run_skb(prog, 1, &retval, NULL))
		return 1;
	/* skb->len excludes the Ethernet header that test_run pulls */
	ok &= EXPECT_EQ("retval for a 64-byte packet", retval, 64 - 14 + 7);
	if (ktest_test_run_skb(prog, 1000, &retval, &duration))
		return 1;
	ok &= EXPECT_EQ("retval after 1000 repeats", retval, 64 - 14 + 7);
	printf("duration %u ns per run\n", duration);

	bpf_object__close(obj);
	return ok ? 0 : 1;
}
