// SPDX-License-Identifier: GPL-2.0
/*
 * The word in front of every JITed entry point is the kCFI hash its C
 * callers check: cfi_bpf_hash in front of main programs, cfi_bpf_subprog_hash
 * in front of subprograms, the stub's hash in front of struct_ops
 * trampolines. cfi_bpf_subprog_hash must also be the type bpf_loop() checks
 * on 6.12 without the series (its CFI report's expected type).
 * Reads kernel memory with the programs of bpf/cfi_hashes.bpf.c.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "ktest.h"

/* Expected type of bpf_loop()'s callback call in the unpatched kernel's report */
#define BPF_CALLBACK_T_HASH 0x9e4709a9U

struct tramp_results {
	__u64 indirect;
	__u64 mismatches;
	__u32 word;
	__u32 stub_hash;
};

/* Run test_1 of bpf_dummy_ops: BPF_PROG_TEST_RUN builds its trampoline. */
static int run_dummy_ops(struct bpf_object *obj)
{
	__u64 args[1] = { 0 };
	LIBBPF_OPTS(bpf_test_run_opts, opts, .ctx_in = args, .ctx_size_in = sizeof(args));

	return bpf_prog_test_run_opts(bpf_program__fd(ktest_prog(obj, "test_1")), &opts);
}

int main(void)
{
	static const char * const objs[] = {
		"cfi_callbacks", "cfi_exception", "cfi_rbtree", "jit_calls",
	};
	struct bpf_object *obj = ktest_load("cfi_hashes"), *ops;
	unsigned int main_hash, sub_hash, word, id, func, cnt;
	int mains = 0, subs = 0, bad = 0, ok = 1;
	struct tramp_results tr;
	char buf[65536], *line;
	struct bpf_link *kp, *krp;
	size_t i;

	for (i = 0; i < sizeof(objs) / sizeof(objs[0]); i++)
		ktest_load(objs[i]);

	kp = bpf_program__attach(ktest_prog(obj, "tramp_entry"));
	krp = bpf_program__attach(ktest_prog(obj, "tramp_exit"));
	if (!kp || !krp)
		return printf("FAIL: attach probes to arch_prepare_bpf_trampoline\n"), 1;
	ops = ktest_load("cfi_struct_ops");
	if (run_dummy_ops(ops) || run_dummy_ops(ops))
		return printf("FAIL: bpf_dummy_ops test_run\n"), 1;
	bpf_link__destroy(kp);
	bpf_link__destroy(krp);

	if (ktest_read_iter(ktest_prog(obj, "dump_hashes"), buf, sizeof(buf)) < 0)
		return 1;

	line = strtok(buf, "\n");
	if (!line || !strcmp(line, "hashes none")) {
		printf("no cfi_bpf_hash in this kernel: the series is not applied\n");
		return KTEST_SKIP;
	}
	if (sscanf(line, "hashes main %x subprog %x", &main_hash, &sub_hash) != 2)
		return printf("FAIL: iterator header: %s\n", line), 1;
	printf("cfi_bpf_hash %#x, cfi_bpf_subprog_hash %#x\n", main_hash, sub_hash);
	ok &= EXPECT_EQ("cfi_bpf_subprog_hash is bpf_callback_t's type",
			sub_hash, BPF_CALLBACK_T_HASH);
	ok &= EXPECT_EQ("the two hashes differ", main_hash != sub_hash, 1);

	while ((line = strtok(NULL, "\n"))) {
		unsigned int want;

		if (sscanf(line, "prog %u func %u of %u word %x", &id, &func, &cnt, &word) != 4)
			return printf("FAIL: iterator line: %s\n", line), 1;
		want = func == 0 ? main_hash : sub_hash;
		if (func == 0)
			mains++;
		else
			subs++;
		if (word != want) {
			printf("FAIL: prog %u function %u: word %#x, expected %#x\n",
			       id, func, word, want);
			bad++;
		}
	}
	printf("checked %d main programs and %d subprograms\n", mains, subs);
	ok &= EXPECT_EQ("entry points with a wrong word", bad, 0);
	/* cfi_callbacks 2 + 2, cfi_exception 1 + 2, cfi_rbtree 1 + 1, jit_calls 8 + 4 */
	ok &= EXPECT_EQ("main programs checked, at least 12", mains >= 12, 1);
	ok &= EXPECT_EQ("subprograms checked, at least 9", subs >= 9, 1);

	if (ktest_read_bss(obj, &tr, sizeof(tr)))
		return 1;
	printf("struct_ops trampoline: word %#x, stub hash %#x\n", tr.word, tr.stub_hash);
	ok &= EXPECT_EQ("struct_ops trampolines built", tr.indirect, 2);
	ok &= EXPECT_EQ("trampolines whose word is not the stub's hash", tr.mismatches, 0);
	return ok ? 0 : 1;
}
