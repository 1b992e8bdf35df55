// SPDX-License-Identifier: GPL-2.0
/*
 * Reads the 32-bit word in front of JITed entry points, where kCFI-checked
 * callers look for the type hash:
 * - iter/bpf_prog prints it for every function of every loaded program,
 *   with the hashes the JIT is meant to emit (cfi_bpf_hash for main
 *   programs, cfi_bpf_subprog_hash for subprograms);
 * - probes on arch_prepare_bpf_trampoline() compare, for each trampoline
 *   that stands in for a struct_ops stub (BPF_TRAMP_F_INDIRECT), the word
 *   in front of it with the stub's own kCFI hash.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#define BPF_TRAMP_F_INDIRECT (1U << 8)	/* include/linux/bpf.h */
#define MAX_FUNCS 64

/* Defined by the series; absent (address 0) on a kernel without it. */
extern const void cfi_bpf_hash __ksym __weak;
extern const void cfi_bpf_subprog_hash __ksym __weak;

static __u32 read_word(const void *p)
{
	__u32 w = 0;

	bpf_probe_read_kernel(&w, sizeof(w), p);
	return w;
}

SEC("iter/bpf_prog")
int dump_hashes(struct bpf_iter__bpf_prog *ctx)
{
	struct seq_file *seq = ctx->meta->seq;
	struct bpf_prog *prog = ctx->prog;
	struct bpf_prog **funcs;
	__u32 id, cnt, i;

	if (ctx->meta->seq_num == 0) {
		if (!&cfi_bpf_hash || !&cfi_bpf_subprog_hash) {
			BPF_SEQ_PRINTF(seq, "hashes none\n");
			return 1;
		}
		BPF_SEQ_PRINTF(seq, "hashes main %x subprog %x\n",
			       read_word(&cfi_bpf_hash), read_word(&cfi_bpf_subprog_hash));
	}
	if (!prog)
		return 0;
	id = prog->aux->id;
	cnt = BPF_CORE_READ(prog, aux, real_func_cnt);
	if (!cnt) {
		BPF_SEQ_PRINTF(seq, "prog %u func 0 of 1 word %x\n", id,
			       read_word((void *)prog->bpf_func - 4));
		return 0;
	}
	funcs = BPF_CORE_READ(prog, aux, func);
	for (i = 0; i < cnt && i < MAX_FUNCS; i++) {
		struct bpf_prog *f = NULL;
		void *entry;

		bpf_probe_read_kernel(&f, sizeof(f), &funcs[i]);
		entry = BPF_CORE_READ(f, bpf_func);
		BPF_SEQ_PRINTF(seq, "prog %u func %u of %u word %x\n", id, i, cnt,
			       read_word(entry - 4));
	}
	return 0;
}

/* In .bss: what the trampoline check saw. */
struct tramp_results {
	__u64 indirect;		/* struct_ops trampolines built */
	__u64 mismatches;	/* ... whose word is not the stub's hash */
	__u32 word;		/* the last one's word */
	__u32 stub_hash;	/* and its stub's hash */
} res;

/* The arguments of the arch_prepare_bpf_trampoline() call in progress. */
static void *ro_image, *stub;
static __u32 tramp_flags;

/*
 * On arm64 with kCFI, fentry cannot attach to kernel functions (no
 * DYNAMIC_FTRACE_WITH_CALL_OPS): a kprobe keeps the arguments, a kretprobe
 * reads the trampoline once it is written.
 */
SEC("kprobe/arch_prepare_bpf_trampoline")
int BPF_KPROBE(tramp_entry, struct bpf_tramp_image *im, void *image, void *image_end,
	       const struct btf_func_model *m, u32 flags, struct bpf_tramp_links *tlinks,
	       void *func_addr)
{
	ro_image = image;
	tramp_flags = flags;
	stub = func_addr;
	return 0;
}

SEC("kretprobe/arch_prepare_bpf_trampoline")
int BPF_KRETPROBE(tramp_exit, int ret)
{
	if (ret <= 0 || !(tramp_flags & BPF_TRAMP_F_INDIRECT) || !ro_image)
		return 0;
	res.indirect++;
	res.word = read_word(ro_image);
	res.stub_hash = read_word(stub - 4);
	if (res.word != res.stub_hash || !res.stub_hash)
		res.mismatches++;
	ro_image = NULL;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
