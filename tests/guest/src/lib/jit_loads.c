// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "jit_loads.h"
#include "ktest.h"

#define LEN 64			/* skb->len of test_run's 64-byte packet */

#define INSN(c, d, s, o, i) ((struct bpf_insn){ .code = (c), .dst_reg = (d), \
					       .src_reg = (s), .off = (o), .imm = (i) })
#define MOV0(i)	INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, i)
#define ADD0(i)	INSN(BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_0, 0, 0, i)
#define EXIT	INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)
#define CALL(to) INSN(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_CALL, 0, to)

static struct bpf_insn insns[JL_MAX_INSNS];

void (*jl_before_detach)(void);

/* Load N of insns[] and check it returns WANT: 1, -errno or JL_WRONG. */
static int load_run(const char *what, int n, long long want)
{
	long long ret;
	int fd, err;

	fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, "jit_loads", "GPL", insns, n, NULL);
	if (fd < 0)
		return -errno;
	ret = ktest_run_fd(fd);
	err = errno;
	close(fd);
	if (ret == -1)
		return -err;
	if (ret != want)
		return printf("FAIL: %s returned %lld, expected %lld\n", what, ret, want), JL_WRONG;
	return 1;
}

int jl_single(int n)
{
	int i;

	insns[0] = MOV0(0);
	for (i = 1; i < n - 1; i++)
		insns[i] = ADD0(1);
	insns[n - 1] = EXIT;
	return load_run("a single-function program", n, n - 2);
}

/* main calls f1, which calls f2, which calls f3: 1 + 2 + 3 + 4 + 5 = 15. */
int jl_multi(void)
{
	const struct bpf_insn p[] = {
		CALL(2), ADD0(5), EXIT,		/* main: f1() + 5 */
		CALL(2), ADD0(4), EXIT,		/* f1: f2() + 4 */
		CALL(2), ADD0(3), EXIT,		/* f2: f3() + 3 */
		MOV0(1), ADD0(2), EXIT,		/* f3: 1 + 2 */
	};

	memcpy(insns, p, sizeof(p));
	return load_run("the multi-function program", sizeof(p) / sizeof(p[0]), 15);
}

int jl_tracing(struct bpf_program *target)
{
	struct bpf_object *obj = ktest_open("jit_attach");
	struct bpf_program *entry = ktest_prog(obj, "on_entry");
	struct bpf_program *fexit = ktest_prog(obj, "on_exit");
	struct bpf_link *l1 = NULL, *l2 = NULL;
	unsigned int retval = 0;
	int err;

	bpf_program__set_autoload(ktest_prog(obj, "new_replace_me"), false);
	bpf_program__set_attach_target(entry, bpf_program__fd(target), "traced");
	bpf_program__set_attach_target(fexit, bpf_program__fd(target), "traced");
	err = bpf_object__load(obj);
	if (!err) {
		l1 = bpf_program__attach_trace(entry);
		l2 = l1 ? bpf_program__attach_trace(fexit) : NULL;
		if (!l2)
			err = -errno;
	}
	if (!err && ktest_test_run_skb(target, 1, &retval, NULL))
		err = -EIO;
	else if (!err && retval != LEN * 2) {
		printf("FAIL: traced returned %u under fentry/fexit, expected %d\n",
		       retval, LEN * 2);
		err = JL_WRONG;
	}
	if (jl_before_detach)
		jl_before_detach();
	bpf_link__destroy(l1);
	bpf_link__destroy(l2);
	bpf_object__close(obj);
	return err ?: 2;
}

int jl_struct_ops(void)
{
	struct bpf_object *obj = ktest_open("cfi_struct_ops");
	__u64 args[1] = { 0 };
	LIBBPF_OPTS(bpf_test_run_opts, opts, .ctx_in = args, .ctx_size_in = sizeof(args));
	int err = bpf_object__load(obj);

	if (!err && bpf_prog_test_run_opts(bpf_program__fd(ktest_prog(obj, "test_1")), &opts))
		err = -errno;
	else if (!err && opts.retval != 0xf2f3f4f5) {
		printf("FAIL: struct_ops test_1 returned %#x, expected 0xf2f3f4f5\n", opts.retval);
		err = JL_WRONG;
	}
	bpf_object__close(obj);
	return err ?: 1;
}
