// SPDX-License-Identifier: GPL-2.0
/*
 * The long-jump PLT path of bpf_arch_text_poke(): a trampoline more than
 * 128 MiB from the program it attaches to, which the program's first
 * instructions cannot reach with a BL, so they branch to the program's PLT
 * and the poke writes the trampoline's address into the PLT's literal
 * (through the text-poke path, patch 13). Booted with bpf_jit_region=1G and
 * the test hooks (wp_attack's "spacer": address space of the region with no
 * pages): the target program's pack is filled to its last chunk, the spacer
 * placed behind it, and the fentry and fexit programs and their trampoline
 * land in a pack beyond the spacer. Both attach and run; detaching fentry
 * rebuilds the trampoline (the PLT's literal changes), detaching fexit
 * takes the branch out.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "ktest.h"

#define ATTACK_FILE "/sys/kernel/debug/bpf_jit/wp_attack"
#define FILLER_INSNS KTEST_FILLER_MAX
#define MAX_FILLERS 400
#define MAX_TINY 4000
#define SPACER_MIB 256
#define BL_RANGE (128ULL << 20)
#define LEN 64			/* skb->len of test_run's 64-byte packet */


static unsigned long long distance(unsigned long long a, unsigned long long b)
{
	return a > b ? a - b : b - a;
}

/*
 * The trampoline images in /proc/kallsyms ("bpf_trampoline_<key> [bpf]";
 * kernel functions of that prefix have no [bpf] tag): how many, and the
 * address of the last one.
 */
static int trampolines(unsigned long long *found)
{
	char line[256], name[200], tag[16], type;
	FILE *f = fopen("/proc/kallsyms", "r");
	unsigned long long addr;
	int n = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %c %199s %15s", &addr, &type, name, tag) == 4 &&
		    !strcmp(tag, "[bpf]") && !strncmp(name, "bpf_trampoline_", 15)) {
			*found = addr;
			n++;
		}
	fclose(f);
	return n;
}

/*
 * The address of the one trampoline image, or 0. A rebuild (the second
 * attach, a detach) publishes the new image at once, while the old one
 * leaves kallsyms only after an RCU-tasks grace period and a workqueue:
 * wait up to 30 s for that.
 */
static unsigned long long trampoline_addr(void)
{
	unsigned long long found = 0;
	int i, n = 0;

	for (i = 0; i < 300; i++) {
		n = trampolines(&found);
		if (n == 1) {
			if (i)
				printf("waited %d ms for the old image to leave kallsyms\n", i * 100);
			return found;
		}
		usleep(100000);
	}
	printf("%d trampoline images in /proc/kallsyms after 30 s\n", n);
	return 0;
}

/* Print where the trampoline is; whether it is in the region, out of BL range. */
static int trampoline_far(const char *when, unsigned long long target,
			  const struct ktest_region *r)
{
	unsigned long long tramp = trampoline_addr();

	if (!tramp)
		return printf("%s: not one trampoline in /proc/kallsyms\n", when), 0;
	printf("%s: trampoline at region +%llu MiB, %llu MiB from the target\n", when,
	       (tramp - r->start) >> 20, distance(tramp, target) >> 20);
	return tramp >= r->start && tramp < r->end && distance(tramp, target) > BL_RANGE;
}

int main(void)
{
	struct rlimit nofile = { MAX_FILLERS + MAX_TINY + 256, MAX_FILLERS + MAX_TINY + 256 };
	struct bpf_program *traced, *on_entry, *on_exit;
	unsigned long long target, prog, spacer_end;
	int *fd, n = 0, i, ok = 1, err;
	struct bpf_link *entry, *exit_link;
	struct bpf_object *calls, *att;
	struct ktest_region r0, rt, r;
	unsigned int retval;
	struct {
		unsigned long long entries, exits, exit_ret, entry_len, null_read;
	} res;

	if (ktest_region(&r0))
		return 1;
	if (!r0.on || r0.size < 2 * (SPACER_MIB << 20)) {
		printf("needs a BPF JIT region of at least %d MiB (boot with bpf_jit_region=1G); mode %s, %llu MiB\n",
		       2 * SPACER_MIB, r0.on ? "on" : "off", r0.size >> 20);
		return KTEST_SKIP;
	}
	if (access(ATTACK_FILE, W_OK)) {
		printf("needs the test hooks (CONFIG_ARM64_BPF_JIT_WP_TEST): %s\n", strerror(errno));
		return KTEST_SKIP;
	}
	if (setrlimit(RLIMIT_NOFILE, &nofile))
		return printf("FAIL: setrlimit: %s\n", strerror(errno)), 1;
	fd = calloc(MAX_FILLERS + MAX_TINY, sizeof(*fd));

	/* The target, then its pack filled up to the point where a filler opens another. */
	calls = ktest_load("jit_calls");
	traced = ktest_prog(calls, "traced");
	target = ktest_jited_addr(bpf_program__fd(traced));
	if (ktest_region(&rt))
		return 1;
	for (;;) {
		if (n == MAX_FILLERS)
			return printf("FAIL: %d fillers did not fill the target's pack\n", n), 1;
		fd[n] = ktest_load_filler(FILLER_INSNS);
		if (fd[n] < 0)
			return printf("FAIL: load filler %d: %s\n", n, strerror(errno)), 1;
		if (distance(ktest_jited_addr(fd[n]), target) >= (2ULL << 20))
			break;		/* the first filler of a pack of its own */
		n++;
	}
	close(fd[n]);		/* that pack is freed with it */
	/* The last holes of the target's pack, with the smallest programs. */
	while (n < MAX_FILLERS + MAX_TINY && (fd[n] = ktest_load_filler(2)) >= 0) {
		if (distance(ktest_jited_addr(fd[n]), target) >= (2ULL << 20)) {
			close(fd[n]);
			break;
		}
		n++;
	}
	printf("the target's pack holds it and %d programs\n", n);
	/* Unloaded programs are freed after an RCU grace period, from a workqueue. */
	for (i = 0; i < 100; i++) {
		usleep(100000);
		if (ktest_region(&r))
			return 1;
		if (r.allocations == rt.allocations)
			break;
	}
	err = ktest_write_file(ATTACK_FILE, "spacer 256");
	if (err)
		return printf("FAIL: spacer: %s\n", strerror(err)), 1;

	att = ktest_open("jit_attach");
	on_entry = ktest_prog(att, "on_entry");
	on_exit = ktest_prog(att, "on_exit");
	bpf_program__set_autoload(ktest_prog(att, "new_replace_me"), false);
	bpf_program__set_attach_target(on_entry, bpf_program__fd(traced), "traced");
	bpf_program__set_attach_target(on_exit, bpf_program__fd(traced), "traced");
	if (bpf_object__load(att))
		return printf("FAIL: load jit_attach: %s\n", strerror(errno)), 1;
	prog = ktest_jited_addr(bpf_program__fd(on_entry));
	spacer_end = target + (SPACER_MIB << 20);
	printf("target at region +%llu KiB, fentry program at +%llu MiB\n",
	       (target - r0.start) >> 10, (prog - r0.start) >> 20);
	ok &= EXPECT_EQ("the fentry program lies beyond the spacer", prog > spacer_end, 1);

	/*
	 * fentry and fexit share one trampoline: detaching fentry rebuilds it
	 * for fexit alone (a poke from one far trampoline to another through
	 * the PLT), detaching fexit takes the branch out.
	 */
	entry = bpf_program__attach_trace(on_entry);
	exit_link = bpf_program__attach_trace(on_exit);
	ok &= EXPECT_EQ("fentry attaches", entry != NULL, 1);
	ok &= EXPECT_EQ("fexit attaches", exit_link != NULL, 1);
	ok &= EXPECT_EQ("the trampoline is in the region, out of BL range of the target",
			trampoline_far("attached", target, &r0), 1);
	if (ktest_test_run_skb(traced, 1, &retval, NULL) || ktest_read_bss(att, &res, sizeof(res)))
		return 1;
	ok &= EXPECT_EQ("the target returns skb->len * 2", retval, 2 * LEN);
	ok &= EXPECT_EQ("fentry ran, through the target's PLT", res.entries, 1);
	ok &= EXPECT_EQ("fexit ran", res.exits, 1);
	ok &= EXPECT_EQ("fexit saw the return value", res.exit_ret, 2 * LEN);

	ok &= EXPECT_EQ("fentry detaches", entry ? bpf_link__destroy(entry) : -1, 0);
	ok &= EXPECT_EQ("the rebuilt trampoline is out of BL range too",
			trampoline_far("fentry detached", target, &r0), 1);
	if (ktest_test_run_skb(traced, 1, &retval, NULL) || ktest_read_bss(att, &res, sizeof(res)))
		return 1;
	ok &= EXPECT_EQ("the target returns skb->len * 2", retval, 2 * LEN);
	ok &= EXPECT_EQ("fentry no longer runs", res.entries, 1);
	ok &= EXPECT_EQ("fexit runs, through the PLT's new target", res.exits, 2);

	ok &= EXPECT_EQ("fexit detaches", exit_link ? bpf_link__destroy(exit_link) : -1, 0);
	if (ktest_test_run_skb(traced, 1, &retval, NULL) || ktest_read_bss(att, &res, sizeof(res)))
		return 1;
	ok &= EXPECT_EQ("detached: the target returns skb->len * 2", retval, 2 * LEN);
	ok &= EXPECT_EQ("detached: fexit no longer runs", res.exits, 2);

	bpf_object__close(att);
	bpf_object__close(calls);
	for (i = 0; i < n; i++)
		close(fd[i]);
	free(fd);
	ok &= EXPECT_EQ("spacer given back", ktest_write_file(ATTACK_FILE, "spacer 0"), 0);
	return ok ? 0 : 1;
}
