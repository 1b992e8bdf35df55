// SPDX-License-Identifier: GPL-2.0
/*
 * Jited line info points at the first instruction of its line. The program
 * is three BPF instructions, a line each:
 *
 *   line 1: r0 = 0
 *   line 2: r0 = 0x1234      JITs to movz x7, #0x1234 (BPF r0 is x7)
 *   line 3: exit
 *
 * The jited address of line 2 must hold that movz. With kCFI the image
 * starts with the 4-byte hash in front of bpf_func; offsets counted from
 * the image instead of bpf_func put line 2 one instruction late (the
 * series' patch "Count jited line info from bpf_func ...").
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "ktest.h"

#define MOVZ_X7_0x1234 0xd2824687U	/* movz x7, #0x1234 */
#define NR_LINES 3

static int load_btf(__u32 *file_off, __u32 *line_off)
{
	struct btf *btf = btf__new_empty();
	int fd, i;

	if (!btf || btf__add_int(btf, "int", 4, BTF_INT_SIGNED) < 0)
		return -1;
	*file_off = btf__add_str(btf, "linfo.c");
	for (i = 0; i < NR_LINES; i++)
		line_off[i] = btf__add_str(btf, i == 0 ? "r0 = 0" :
					   i == 1 ? "r0 = 0x1234" : "exit");
	if (btf__load_into_kernel(btf))
		return -1;
	fd = btf__fd(btf);
	return fd;	/* the btf object stays alive with its fd */
}

int main(void)
{
	struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0x1234 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	struct bpf_line_info linfo[NR_LINES];
	__u32 file_off, line_off[NR_LINES], code[256];
	__u64 jited_linfo[NR_LINES], ksym;
	struct bpf_prog_info info;
	__u32 len = sizeof(info), line2;
	int btf_fd, fd, i, ok = 1;
	long idx;

	btf_fd = load_btf(&file_off, line_off);
	if (btf_fd < 0)
		return printf("FAIL: load BTF for the line info\n"), 1;
	for (i = 0; i < NR_LINES; i++)
		linfo[i] = (struct bpf_line_info){
			.insn_off = i, .file_name_off = file_off,
			.line_off = line_off[i], .line_col = (i + 1) << 10,
		};

	LIBBPF_OPTS(bpf_prog_load_opts, opts, .prog_btf_fd = btf_fd,
		    .line_info = linfo, .line_info_cnt = NR_LINES,
		    .line_info_rec_size = sizeof(linfo[0]));
	fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, "linfo", "GPL", insns,
			   NR_LINES, &opts);
	if (fd < 0)
		return printf("FAIL: load the program: %s\n", strerror(errno)), 1;

	memset(&info, 0, sizeof(info));
	info.nr_jited_line_info = NR_LINES;
	info.jited_line_info_rec_size = sizeof(__u64);
	info.jited_line_info = (__u64)(unsigned long)jited_linfo;
	info.nr_jited_ksyms = 1;
	info.jited_ksyms = (__u64)(unsigned long)&ksym;
	info.jited_prog_len = sizeof(code);
	info.jited_prog_insns = (__u64)(unsigned long)code;
	if (bpf_prog_get_info_by_fd(fd, &info, &len))
		return printf("FAIL: prog info: %s\n", strerror(errno)), 1;
	if (!ksym || !jited_linfo[0])
		return printf("no kernel addresses (kptr_restrict?)\n"), KTEST_SKIP;

	printf("bpf_func %#llx, jited_len %u\n", (unsigned long long)ksym,
	       info.jited_prog_len);
	for (i = 0; i < NR_LINES; i++)
		printf("line %d at bpf_func%+lld\n", i + 1,
		       (long long)(jited_linfo[i] - ksym));

	ok &= EXPECT_EQ("line 1 is at bpf_func", jited_linfo[0], ksym);
	idx = (long)(jited_linfo[1] - ksym) / 4;
	if (idx < 0 || idx >= (long)(info.jited_prog_len / 4))
		return printf("FAIL: line 2 outside the jited image\n"), 1;
	line2 = code[idx];
	printf("instruction at line 2: %#x\n", line2);
	ok &= EXPECT_EQ("line 2 starts with movz x7, #0x1234", line2, MOVZ_X7_0x1234);
	ok &= EXPECT_EQ("line 3 follows line 2 by one instruction",
			jited_linfo[2] - jited_linfo[1], 4);

	close(fd);
	close(btf_fd);
	return ok ? 0 : 1;
}
