// SPDX-License-Identifier: GPL-2.0
/*
 * Helper of t/test_cfi_trap, not a test itself.
 *
 *   cfi_trap_victim main|subprog|trampoline|none
 *
 * Sets the series' test switch (CONFIG_ARM64_BPF_JIT_KCFI_TEST) so that the
 * JIT inverts the kCFI hash of one kind of entry point, loads a program
 * with such an entry point, clears the switch and calls the program from C.
 * The call must fail its CFI check: with CFI_PERMISSIVE=n the kernel oopses
 * and kills this process, so returning at all is a failure (exit 1). With
 * "none" nothing is corrupted and the call must succeed (exit 0).
 *
 *   cfi_trap_victim hashes
 *
 * prints the hashes the JIT emits, "MAIN SUBPROG" in hex.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "ktest.h"

#define KNOB "/sys/kernel/debug/arm64_bpf_jit/kcfi_corrupt"

static int set_knob(unsigned int mask)
{
	FILE *f = fopen(KNOB, "w");

	if (!f || fprintf(f, "%#x\n", mask) < 0 || fclose(f)) {
		printf("FAIL: write %s: %s\n", KNOB, strerror(errno));
		return -1;
	}
	return 0;
}

static int print_hashes(void)
{
	struct bpf_object *obj = ktest_load("cfi_hashes");
	unsigned int main_hash, sub_hash;
	char buf[256];

	if (ktest_read_iter(ktest_prog(obj, "dump_hashes"), buf, sizeof(buf)) < 0)
		return 1;
	if (sscanf(buf, "hashes main %x subprog %x", &main_hash, &sub_hash) != 2)
		return printf("FAIL: no hashes: %s\n", buf), 1;
	printf("%x %x\n", main_hash, sub_hash);
	return 0;
}

int main(int argc, char **argv)
{
	const char *kind = argc == 2 ? argv[1] : "";
	const char *objname = "cfi_trap", *progname = "trap_loop";
	__u64 args[1] = { 0 };
	LIBBPF_OPTS(bpf_test_run_opts, opts, .ctx_in = args, .ctx_size_in = sizeof(args));
	struct bpf_object *obj;
	unsigned int mask;
	int err;

	if (!strcmp(kind, "hashes"))
		return print_hashes();
	if (!strcmp(kind, "main")) {
		mask = 0x1, progname = "trap_main";
	} else if (!strcmp(kind, "subprog") || !strcmp(kind, "none")) {
		mask = *kind == 's' ? 0x2 : 0;
	} else if (!strcmp(kind, "trampoline")) {
		mask = 0x4, objname = "cfi_struct_ops", progname = "test_1";
	} else {
		printf("usage: cfi_trap_victim main|subprog|trampoline|none|hashes\n");
		return 2;
	}

	/* struct_ops trampolines are built at test_run time: keep the switch on */
	if (set_knob(mask))
		return 1;
	obj = ktest_load(objname);
	if (mask != 0x4 && set_knob(0))
		return 1;
	printf("calling %s of %s with switch %#x\n", progname, objname, mask);
	fflush(stdout);
	err = bpf_prog_test_run_opts(bpf_program__fd(ktest_prog(obj, progname)), &opts);
	set_knob(0);
	printf("returned: err %d, retval %u\n", err, opts.retval);
	if (mask)
		return 1;
	return err || opts.retval != 10 ? 1 : 0;
}
