// SPDX-License-Identifier: GPL-2.0
/*
 * The BPF JIT region's layout, with programs, a trampoline (fentry) and a
 * freplace attached: /sys/kernel/debug/bpf_jit/region describes a region
 * inside its window, bpf_jit_limit is half of it, every BPF JIT allocation
 * in /proc/vmallocinfo lies inside the region and nothing else lies in the
 * window, every JITed program starts inside it, and its usage counts what
 * is loaded. With bpf_jit_region=off: no region, the window stays empty,
 * BPF JIT memory comes from the vmalloc area and bpf_jit_limit is 6.12's.
 * With nokaslr the region starts its window (KASLR places it at random).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "ktest.h"

/*
 * Callers of BPF JIT areas: bpf_jit_alloc_exec() (executable memory) and,
 * with write protection, bpf_jit_alloc_rw() (staging) and
 * bpf_jit_staging_pool_init() (the staging pool).
 */
#define BPF_CALLER "bpf_jit_"

struct layout {
	int bpf, bpf_in_region, bpf_in_window, other_in_window;
};

/* Count /proc/vmallocinfo's areas by caller and place (real addresses need kptr_restrict=1). */
static int read_vmallocinfo(const struct ktest_region *r, struct layout *l)
{
	char line[512], caller[128];
	unsigned long long a, b;
	FILE *f;

	f = fopen("/proc/sys/kernel/kptr_restrict", "w");
	if (!f || fputs("1\n", f) < 0 || fclose(f))
		return printf("FAIL: kptr_restrict=1: %s\n", strerror(errno)), -1;
	f = fopen("/proc/vmallocinfo", "r");
	if (!f)
		return printf("FAIL: open /proc/vmallocinfo: %s\n", strerror(errno)), -1;
	memset(l, 0, sizeof(*l));
	while (fgets(line, sizeof(line), f)) {
		int in_window, in_region, bpf;

		if (sscanf(line, "%llx-%llx %*u %127s", &a, &b, caller) != 3)
			continue;
		/* b is the end of the area, its guard page included. */
		in_window = a < r->window_end && b > r->window_start;
		in_region = r->on && a >= r->start && b <= r->end;
		bpf = !strncmp(caller, BPF_CALLER, strlen(BPF_CALLER));
		l->bpf += bpf;
		l->bpf_in_region += bpf && in_region;
		l->bpf_in_window += bpf && in_window;
		if (!bpf && in_window) {
			l->other_in_window++;
			printf("not BPF JIT memory in the window: %s", line);
		}
	}
	fclose(f);
	return 0;
}

static long long read_long(const char *path)
{
	long long v = -1;
	FILE *f = fopen(path, "r");

	if (f) {
		if (fscanf(f, "%lld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

/* Was the kernel booted with nokaslr (the region then starts its window)? */
static int booted_nokaslr(void)
{
	char cmdline[4096] = "", *w;
	FILE *f = fopen("/proc/cmdline", "r");

	if (f) {
		if (!fgets(cmdline, sizeof(cmdline), f))
			cmdline[0] = 0;
		fclose(f);
	}
	for (w = strtok(cmdline, " \n"); w; w = strtok(NULL, " \n"))
		if (!strcmp(w, "nokaslr"))
			return 1;
	return 0;
}

int main(void)
{
	struct bpf_object *calls = ktest_load("jit_calls");
	struct bpf_program *target = ktest_prog(calls, "traced");
	struct bpf_object *att = ktest_open("jit_attach");
	struct bpf_link *fentry, *freplace;
	struct ktest_region r, loaded;
	unsigned long long addr[4];
	int fds[4], i, ok = 1, err;
	struct layout l;

	if (ktest_region(&r))
		return 1;
	printf("region: mode %s, 0x%llx-0x%llx (%llu MiB), window 0x%llx-0x%llx\n",
	       r.on ? "on" : "off", r.start, r.end, r.size >> 20, r.window_start, r.window_end);
	ok &= EXPECT_EQ("window: 4 GiB", r.window_end - r.window_start, 4ULL << 30);
	if (r.on) {
		ok &= EXPECT_EQ("size is end - start", r.size, r.end - r.start);
		ok &= EXPECT_EQ("region inside its window",
				r.start >= r.window_start && r.end <= r.window_end, 1);
		ok &= EXPECT_EQ("bpf_jit_limit: half the region",
				read_long("/proc/sys/net/core/bpf_jit_limit"), r.size / 2);
		if (booted_nokaslr())
			ok &= EXPECT_EQ("nokaslr: the region at the window's start",
					r.start, r.window_start);
	} else {
		ok &= EXPECT_EQ("off: no region", r.start | r.end | r.size, 0);
		ok &= EXPECT_EQ("off: bpf_jit_limit larger than the window",
				read_long("/proc/sys/net/core/bpf_jit_limit") > (4LL << 30), 1);
	}

	/* A trampoline (fentry) and a freplace, besides the programs. */
	bpf_program__set_autoload(ktest_prog(att, "on_exit"), false);
	bpf_program__set_attach_target(ktest_prog(att, "on_entry"), bpf_program__fd(target), "traced");
	bpf_program__set_attach_target(ktest_prog(att, "new_replace_me"),
				       bpf_program__fd(ktest_prog(calls, "freplace_target")),
				       "replace_me");
	err = bpf_object__load(att);
	if (err)
		return printf("FAIL: load jit_attach: %s\n", strerror(-err)), 1;
	fentry = bpf_program__attach_trace(ktest_prog(att, "on_entry"));
	freplace = bpf_program__attach_freplace(ktest_prog(att, "new_replace_me"),
						bpf_program__fd(ktest_prog(calls, "freplace_target")),
						"replace_me");
	ok &= EXPECT_EQ("fentry attached", fentry != NULL, 1);
	ok &= EXPECT_EQ("freplace attached", freplace != NULL, 1);

	if (ktest_region(&loaded) || read_vmallocinfo(&r, &l))
		return 1;
	printf("vmallocinfo: %d BPF JIT areas, %d in the region, %d in the window\n",
	       l.bpf, l.bpf_in_region, l.bpf_in_window);
	ok &= EXPECT_EQ("BPF JIT areas in /proc/vmallocinfo", l.bpf > 0, 1);
	ok &= EXPECT_EQ("other areas in the window", l.other_in_window, 0);
	ok &= EXPECT_EQ("BPF JIT memory in use while loaded", loaded.in_use_bytes > 0, 1);
	ok &= EXPECT_EQ("allocations counted", loaded.allocations > 0, 1);

	fds[0] = bpf_program__fd(target);
	fds[1] = bpf_program__fd(ktest_prog(calls, "freplace_target"));
	fds[2] = bpf_program__fd(ktest_prog(att, "on_entry"));
	fds[3] = bpf_program__fd(ktest_prog(att, "new_replace_me"));
	for (i = 0; i < 4; i++)
		addr[i] = ktest_jited_addr(fds[i]);
	if (r.on) {
		ok &= EXPECT_EQ("every BPF JIT area inside the region", l.bpf_in_region, l.bpf);
		for (i = 0; i < 4; i++) {
			printf("program %d JITed at 0x%llx\n", i, addr[i]);
			ok &= EXPECT_EQ("  inside the region", addr[i] >= r.start && addr[i] < r.end, 1);
		}
	} else {
		ok &= EXPECT_EQ("off: no BPF JIT area in the window", l.bpf_in_window, 0);
		for (i = 0; i < 4; i++)
			ok &= EXPECT_EQ("off: program outside the window", addr[i] &&
					(addr[i] < r.window_start || addr[i] >= r.window_end), 1);
	}

	bpf_link__destroy(freplace);
	bpf_link__destroy(fentry);
	bpf_object__close(att);
	bpf_object__close(calls);
	return ok ? 0 : 1;
}
