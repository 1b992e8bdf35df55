// SPDX-License-Identifier: GPL-2.0
/*
 * Synthetic socket filter programs of a given size, built as raw
 * instructions so their size is exact:
 *   straight: r0 = 0; r0 += 1 (n - 2 times); exit
 *   branchy:  blocks of 10: "r3 = skb->len; if r3 > i goto +1; r3 += 1;
 *             r0 += 1 (7 times)", a conditional forward branch every 10
 *             instructions (compiled code has one every 5 to 10). r3 is dead
 *             at every join, so the verifier prunes and stays linear; a
 *             denser chain would hit its limit of 8192 pending branches
 *             (BPF_COMPLEXITY_LIMIT_JMP_SEQ) before 65,536 instructions
 *   subprogs: main calls K subprograms (bpf-to-bpf, no BTF), each 16
 *             instructions long
 */
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include "bench.h"

static struct bpf_insn insn(__u8 code, __u8 dst, __u8 src, __s16 off, __s32 imm)
{
	struct bpf_insn i = { .code = code, .dst_reg = dst, .src_reg = src,
			      .off = off, .imm = imm };
	return i;
}

#define MOV_IMM(dst, imm)	insn(BPF_ALU64 | BPF_MOV | BPF_K, dst, 0, 0, imm)
#define ADD_IMM(dst, imm)	insn(BPF_ALU64 | BPF_ADD | BPF_K, dst, 0, 0, imm)
#define LDX_W(dst, src, off)	insn(BPF_LDX | BPF_MEM | BPF_W, dst, src, off, 0)
#define JGT_IMM(dst, imm, off)	insn(BPF_JMP | BPF_JGT | BPF_K, dst, 0, off, imm)
#define CALL_REL(off)		insn(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_CALL, 0, off)
#define EXIT()			insn(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)

static struct bpf_insn *alloc_insns(int n)
{
	struct bpf_insn *p = calloc(n, sizeof(*p));

	if (!p)
		fail("out of memory for %d instructions", n);
	return p;
}

struct bpf_insn *gen_straight(int n)
{
	struct bpf_insn *p = alloc_insns(n);
	int i;

	p[0] = MOV_IMM(BPF_REG_0, 0);
	for (i = 1; i < n - 1; i++)
		p[i] = ADD_IMM(BPF_REG_0, 1);
	p[n - 1] = EXIT();
	return p;
}

#define BLOCK_LEN 10

struct bpf_insn *gen_branchy(int n)
{
	struct bpf_insn *p = alloc_insns(n);
	int i = 0, k = 0, j;

	p[i++] = MOV_IMM(BPF_REG_0, 0);
	while (i + BLOCK_LEN <= n - 1) {
		p[i++] = LDX_W(BPF_REG_3, BPF_REG_1, 0);	/* skb->len */
		p[i++] = JGT_IMM(BPF_REG_3, k++, 1);
		p[i++] = ADD_IMM(BPF_REG_3, 1);
		for (j = 3; j < BLOCK_LEN; j++)
			p[i++] = ADD_IMM(BPF_REG_0, 1);
	}
	while (i < n - 1)
		p[i++] = ADD_IMM(BPF_REG_0, 1);
	p[i] = EXIT();
	return p;
}

#define SUBPROG_LEN 16

struct bpf_insn *gen_subprogs(int k, int *cnt)
{
	int main_len = k + 2, i, j;
	struct bpf_insn *p;

	*cnt = main_len + k * SUBPROG_LEN;
	p = alloc_insns(*cnt);
	/* Call j lands on subprogram j: offset from the next instruction. */
	for (j = 0; j < k; j++)
		p[j] = CALL_REL(main_len + j * SUBPROG_LEN - (j + 1));
	p[k] = MOV_IMM(BPF_REG_0, 0);
	p[k + 1] = EXIT();
	for (j = 0; j < k; j++) {
		struct bpf_insn *s = p + main_len + j * SUBPROG_LEN;

		s[0] = MOV_IMM(BPF_REG_0, j);
		for (i = 1; i < SUBPROG_LEN - 1; i++)
			s[i] = ADD_IMM(BPF_REG_0, 1);
		s[SUBPROG_LEN - 1] = EXIT();
	}
	return p;
}

int load_insns(const struct bpf_insn *insns, int cnt, char *log, size_t log_size)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts,
		    .log_buf = log, .log_size = log ? log_size : 0,
		    .log_level = log ? 4 /* BPF_LOG_STATS */ : 0);

	if (log)
		log[0] = '\0';
	return bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, "bench", "GPL", insns, cnt, &opts);
}

int prog_jit_info(int fd, __u32 *jited_len, __u32 *nr_funcs)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	if (bpf_prog_get_info_by_fd(fd, &info, &len))
		return -errno;
	*jited_len = info.jited_prog_len;
	*nr_funcs = info.nr_jited_ksyms ? info.nr_jited_ksyms : 1;
	return 0;
}

double log_verify_ns(const char *log)
{
	const char *p = strstr(log, "verification time ");
	long long us;

	if (!p || sscanf(p, "verification time %lld usec", &us) != 1)
		return -1;
	return us * 1e3;
}
