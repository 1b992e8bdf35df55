// SPDX-License-Identifier: GPL-2.0
/*
 * bpf-to-bpf calls: a main program calls a global subprogram that calls a
 * static one, each JITed as its own function with its own kCFI word.
 * Also checks what user space sees of the JITed functions: one jited_ksyms
 * address and length per function, in /proc/kallsyms, each starting with
 * the BTI landing pad (the hash word is in front of bpf_func, not in the
 * dump), and jited line info that starts at each function's entry and
 * stays inside it.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "ktest.h"

#define LEN 64		/* skb->len of test_run's 64-byte packet (tc keeps Ethernet) */
#define A64_BTI_JC 0xd50324dfU
#define A64_BTI_C 0xd503245fU

/* Is there a bpf_prog_* symbol at ADDR in one read of /proc/kallsyms? */
static int in_kallsyms_once(unsigned long long addr)
{
	char line[512], type, name[256];
	unsigned long long a;
	FILE *f = fopen("/proc/kallsyms", "r");
	int found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %c %255s", &a, &type, name) == 3 &&
		    a == addr && !strncmp(name, "bpf_prog_", 9))
			found = 1;
	fclose(f);
	return found;
}

/*
 * /proc/kallsyms lists BPF symbols by position: while the programs of
 * earlier tests are still being freed (deferred work), a symbol removed
 * between two read()s shifts the list and one read can skip an entry that
 * was there all along. A symbol that is missing is missing from every read.
 */
static int in_kallsyms(unsigned long long addr)
{
	int tries;

	for (tries = 0; tries < 5; tries++) {
		if (in_kallsyms_once(addr))
			return 1;
		usleep(100000);
	}
	return 0;
}

int main(void)
{
	struct bpf_object *obj = ktest_load("jit_calls");
	struct bpf_program *prog = ktest_prog(obj, "bpf2bpf");
	__u64 ksyms[8], jlinfo[256];
	__u32 lens[8], len, i, off, j, nlinfo, outside = 0, unordered = 0, prev;
	struct bpf_line_info linfo[256];
	unsigned char code[4096];
	struct bpf_prog_info info;
	unsigned int retval;
	int ok = 1;

	if (ktest_test_run_skb(prog, 1, &retval, NULL))
		return 1;
	ok &= EXPECT_EQ("bpf2bpf: mul_add(len, 3, 7) + mul(2, 5)", retval, LEN * 3 + 7 + 10);

	memset(&info, 0, sizeof(info));
	info.nr_jited_ksyms = 8;
	info.jited_ksyms = (unsigned long)ksyms;
	info.nr_jited_func_lens = 8;
	info.jited_func_lens = (unsigned long)lens;
	info.jited_prog_len = sizeof(code);
	info.jited_prog_insns = (unsigned long)code;
	info.nr_line_info = 256;
	info.line_info_rec_size = sizeof(linfo[0]);
	info.line_info = (unsigned long)linfo;
	info.nr_jited_line_info = 256;
	info.jited_line_info_rec_size = sizeof(jlinfo[0]);
	info.jited_line_info = (unsigned long)jlinfo;
	len = sizeof(info);
	if (bpf_obj_get_info_by_fd(bpf_program__fd(prog), &info, &len))
		return printf("FAIL: BPF_OBJ_GET_INFO_BY_FD\n"), 1;
	ok &= EXPECT_EQ("functions: main, mul_add, mul", info.nr_jited_ksyms, 3);
	if (info.nr_jited_ksyms > 8 || info.jited_prog_len > sizeof(code))
		return printf("FAIL: program larger than expected\n"), 1;
	for (i = 0, off = 0; i < info.nr_jited_ksyms; off += lens[i], i++) {
		__u32 first;

		printf("function %u at %#llx, %u bytes\n", i, (unsigned long long)ksyms[i], lens[i]);
		ok &= EXPECT_EQ("  listed in /proc/kallsyms", in_kallsyms(ksyms[i]), 1);
		memcpy(&first, code + off, sizeof(first));
		ok &= EXPECT_EQ("  dump starts with BTI (jc or c)",
				first == A64_BTI_JC || first == A64_BTI_C, 1);
	}
	ok &= EXPECT_EQ("function lengths add up to jited_prog_len", off, info.jited_prog_len);

	/*
	 * Line info: the first record of each function (insn_off at the
	 * function's start) is the function's entry; every record lies in
	 * one function's range, found by range (the pack's first-fit places
	 * a program's functions in any order), and records, sorted by
	 * instruction, go through the functions in order.
	 */
	nlinfo = info.nr_jited_line_info < 256 ? info.nr_jited_line_info : 256;
	ok &= EXPECT_EQ("jited line info records, as many as line info",
			nlinfo > 0 && nlinfo == info.nr_line_info, 1);
	ok &= EXPECT_EQ("first line info at the main program's entry",
			nlinfo && jlinfo[0] == ksyms[0], 1);
	for (j = 0, prev = 0; j < nlinfo; j++) {
		for (i = 0; i < info.nr_jited_ksyms; i++)
			if (jlinfo[j] >= ksyms[i] && jlinfo[j] < ksyms[i] + lens[i])
				break;
		if (i >= info.nr_jited_ksyms)
			outside++;
		else if (i < prev)
			unordered++;
		else
			prev = i;
	}
	ok &= EXPECT_EQ("jited line info records outside their function", outside, 0);
	ok &= EXPECT_EQ("jited line info records of an earlier function after a later one",
			unordered, 0);
	for (i = 1; i < info.nr_jited_ksyms; i++) {
		for (j = 0; j < nlinfo && jlinfo[j] != ksyms[i]; j++)
			;
		printf("function %u: line info at its entry: %s\n", i, j < nlinfo ? "yes" : "no");
		ok &= j < nlinfo;
	}

	bpf_object__close(obj);
	return ok ? 0 : 1;
}
