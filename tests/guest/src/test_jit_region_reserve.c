// SPDX-License-Identifier: GPL-2.0
/*
 * A small BPF JIT region filled by a privileged loader of eBPF programs
 * (this test runs as root): what still works. Booted with a reserve
 * (bpf_jit_region=8M,2M): classic BPF, a socket filter and a seccomp filter,
 * loads in the reserve, an eBPF program still does not (it may not share
 * the reserve's packs), and a trampoline is built for an attach and rebuilt
 * for its detach. Booted without one (bpf_jit_region=8M: none below 64M),
 * the same filler makes the classic filters fail: the denial of service the
 * reserve is for. Everything unloaded, the region's usage is back where it
 * started.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/bpf.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "ktest.h"

#define FILLER_INSNS KTEST_FILLER_MAX
#define MAX_FILLERS 4000
#define MAX_TINY 4000		/* 2-instruction programs that fill the holes left */
#define SOCKETS 64		/* classic socket filters loaded once the region is full */


/* Classic BPF that accepts every packet, or allows every system call. */
static struct sock_filter accept_all[] = {
	BPF_STMT(BPF_RET | BPF_K, 0xffff),
};
static struct sock_filter allow_all[] = {
	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
};

/* A socket with a classic filter attached; -1 and errno if it is refused. */
static int filtered_socket(void)
{
	struct sock_fprog prog = { 1, accept_all };
	int s = socket(AF_INET, SOCK_DGRAM, 0), e;

	if (s < 0)
		return -1;
	if (setsockopt(s, SOL_SOCKET, SO_ATTACH_FILTER, &prog, sizeof(prog))) {
		e = errno;
		close(s);
		errno = e;
		return -1;
	}
	return s;
}

/*
 * Install a seccomp filter in a child: 0, SECCOMP_JIT_FAILED when the JIT
 * could not compile it (ENOTSUPP), else the errno it got (ENOSYS: no
 * CONFIG_SECCOMP_FILTER), or -1.
 */
#define SECCOMP_JIT_FAILED 200
static int seccomp_in_child(void)
{
	struct sock_fprog prog = { 1, allow_all };
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return errno;
	if (!pid) {
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
			_exit(errno & 0xff);
		if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog))
			_exit(errno == ENOTSUPP ? SECCOMP_JIT_FAILED : errno & 0x7f);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

int main(void)
{
	struct rlimit nofile = { MAX_FILLERS + MAX_TINY + SOCKETS + 256,
				 MAX_FILLERS + MAX_TINY + SOCKETS + 256 };
	int *fd, *tfd, sock[SOCKETS], n = 0, tiny = 0, socks = 0, i, ok = 1;
	int load_errno = 0, tiny_errno = 0, sock_errno = 0, seccomp_err, again, again_errno;
	struct bpf_program *traced, *on_entry;
	struct bpf_object *calls, *att;
	struct ktest_region r0, r, rf;
	struct bpf_link *link;
	unsigned long long highest = 0;
	unsigned int retval;
	bool reserve;
	struct {
		unsigned long long entries, exits, exit_ret, entry_len, null_read;
	} res;

	if (ktest_region_settled(&r0))
		return 1;
	if (!r0.on || r0.size > (32ULL << 20)) {
		printf("needs a small BPF JIT region (boot with bpf_jit_region=8M[,2M]); mode %s, %llu MiB\n",
		       r0.on ? "on" : "off", r0.size >> 20);
		return KTEST_SKIP;
	}
	reserve = r0.reserve_bytes > 0;
	printf("a %llu MiB region, %llu MiB reserve\n", r0.size >> 20, r0.reserve_bytes >> 20);
	if (setrlimit(RLIMIT_NOFILE, &nofile))
		return printf("FAIL: setrlimit: %s\n", strerror(errno)), 1;

	/* The fentry program and its target, loaded before the region fills. */
	calls = ktest_load("jit_calls");
	traced = ktest_prog(calls, "traced");
	att = ktest_open("jit_attach");
	on_entry = ktest_prog(att, "on_entry");
	bpf_program__set_autoload(ktest_prog(att, "on_exit"), false);
	bpf_program__set_autoload(ktest_prog(att, "new_replace_me"), false);
	bpf_program__set_attach_target(on_entry, bpf_program__fd(traced), "traced");
	if (bpf_object__load(att))
		return printf("FAIL: load jit_attach: %s\n", strerror(errno)), 1;

	/* The privileged filler: eBPF programs until one does not fit, then the holes. */
	fd = calloc(MAX_FILLERS, sizeof(*fd));
	tfd = calloc(MAX_TINY, sizeof(*tfd));
	while (n < MAX_FILLERS && (fd[n] = ktest_load_filler(FILLER_INSNS)) >= 0)
		n++;
	load_errno = errno;
	while (tiny < MAX_TINY && (tfd[tiny] = ktest_load_filler(2)) >= 0)
		tiny++;
	tiny_errno = errno;
	if (ktest_region(&rf))
		return 1;
	printf("%d programs of %d instructions and %d of 2 loaded; the next: %s; in use %llu of %llu bytes\n",
	       n, FILLER_INSNS, tiny, strerror(tiny_errno), rf.in_use_bytes, rf.size);
	ok &= EXPECT_EQ("the region fills before the program limit", n < MAX_FILLERS, 1);
	ok &= EXPECT_EQ("a filler that does not fit fails with ENOTSUPP", load_errno, ENOTSUPP);
	ok &= EXPECT_EQ("so does the smallest program", tiny_errno, ENOTSUPP);
	/* Where each filler's code starts: below the reserve, every one of them. */
	for (i = 0; i < n + tiny; i++) {
		unsigned long long a = ktest_jited_addr(i < n ? fd[i] : tfd[i - n]);

		highest = a > highest ? a : highest;
	}
	printf("highest eBPF program at region +%llu KiB, reserve from +%llu KiB\n",
	       (highest - rf.start) >> 10, (rf.size - rf.reserve_bytes) >> 10);
	ok &= EXPECT_EQ("eBPF programs leave the reserve",
			highest >= rf.start && highest < rf.end - rf.reserve_bytes, 1);

	/* Classic BPF: socket filters and a seccomp filter. */
	while (socks < SOCKETS && (sock[socks] = filtered_socket()) >= 0)
		socks++;
	sock_errno = socks < SOCKETS ? errno : 0;
	seccomp_err = seccomp_in_child();
	printf("%d of %d socket filters attached (%s); seccomp filter: %s (child's status %d)\n",
	       socks, SOCKETS, sock_errno ? strerror(sock_errno) : "all",
	       seccomp_err ? "refused" : "installed", seccomp_err);
	if (reserve) {
		ok &= EXPECT_EQ("every socket filter attaches", socks, SOCKETS);
		ok &= EXPECT_EQ("a seccomp filter installs", seccomp_err, 0);
		/* The classic filters opened a pack in the reserve, with room to spare. */
		again = ktest_load_filler(2);
		again_errno = errno;
		ok &= EXPECT_EQ("an eBPF program still does not load", again < 0, 1);
		ok &= EXPECT_EQ("... with ENOTSUPP", again < 0 ? again_errno : 0, ENOTSUPP);
		if (again >= 0)
			close(again);
	} else {
		ok &= EXPECT_EQ("without a reserve, a socket filter is refused", socks < SOCKETS, 1);
		ok &= EXPECT_EQ("... with ENOTSUPP", sock_errno, ENOTSUPP);
		ok &= EXPECT_EQ("... and a seccomp filter too: the JIT failed", seccomp_err,
				SECCOMP_JIT_FAILED);
	}

	/* A trampoline built for an attach, and rebuilt for the detach. */
	link = bpf_program__attach_trace(on_entry);
	if (reserve) {
		ok &= EXPECT_EQ("fentry attaches", link != NULL, 1);
		if (ktest_test_run_skb(traced, 1, &retval, NULL) ||
		    ktest_read_bss(att, &res, sizeof(res)))
			return 1;
		ok &= EXPECT_EQ("fentry ran", res.entries, 1);
	}
	if (link) {
		ok &= EXPECT_EQ("detach", bpf_link__destroy(link), 0);
		if (ktest_test_run_skb(traced, 1, &retval, NULL) ||
		    ktest_read_bss(att, &res, sizeof(res)))
			return 1;
		ok &= EXPECT_EQ("fentry no longer runs", res.entries, 1);
	}

	for (i = 0; i < socks; i++)
		close(sock[i]);
	bpf_object__close(att);
	bpf_object__close(calls);
	for (i = 0; i < n; i++)
		close(fd[i]);
	for (i = 0; i < tiny; i++)
		close(tfd[i]);
	if (ktest_region_wait_in_use(r0.in_use_bytes, &r))
		return 1;
	ok &= EXPECT_EQ("usage back to its start after unloading", r.in_use_bytes, r0.in_use_bytes);
	fd[0] = ktest_load_filler(FILLER_INSNS);
	ok &= EXPECT_EQ("a program loads again", fd[0] >= 0, 1);
	if (fd[0] >= 0)
		close(fd[0]);
	free(fd);
	free(tfd);
	return ok ? 0 : 1;
}
