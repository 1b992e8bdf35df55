// SPDX-License-Identifier: GPL-2.0
/*
 * conc: BPF_PROG_LOAD latency with several loaders at once. For each CPU
 * count of --cpus (the loaders are bound to CPUs 0..C-1, so a 4-vCPU guest
 * measures 2 and 4 CPUs) and each loader count of --counts, that many
 * processes start together and each loads --rounds programs of mixed
 * sizes (a fixed pseudo-random sequence per loader: 50% 8, 25% 512 and
 * 25% 4,096 straight-line instructions), closing each after its load.
 * Under icount the guest's clock counts instructions, so the latency of a
 * load includes the time it waited for a lock or a CPU another loader held.
 * Rows (workload conc, case "cpus<C>", x = loaders):
 *   load_ns        one row per load; round = loader * --rounds + its index
 *   insns          the loaded program's size of the same round
 *   failed_loads   loads that failed (round 0)
 *   batch_ns       first start to last exit of the loaders (round 0)
 *   pool_misses    staging_pool_misses of bpf_jit/wp over the batch (round
 *                  0; absent without write protection's debugfs file)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include "bench.h"

#define MAX_LOADERS 64

static const int mix_insns[] = { 8, 8, 512, 4096 };
#define NMIX (sizeof(mix_insns) / sizeof(mix_insns[0]))

/* staging_pool_misses of bpf_jit/wp, or -1 without it. */
static double pool_misses(void)
{
	return wp_value("staging_pool_misses", -1);
}

/* The size of loader @l's load @r: the same in every boot. */
static int pick(int l, int r)
{
	unsigned int s = 0x9e3779b9u * (l + 1) + 0x85ebca6bu * (r + 1);

	s ^= s >> 15;
	s *= 0x2c1b3c6du;
	s ^= s >> 12;
	return mix_insns[s % NMIX];
}

struct shared {
	double load_ns[MAX_LOADERS * 1000];
	int insns[MAX_LOADERS * 1000];
	int failed;
};

static void loader(struct shared *sh, const struct bpf_insn *const progs[NMIX], int l,
		   int rounds, int cpus, int go)
{
	cpu_set_t set;
	char c;
	int r, i;

	CPU_ZERO(&set);
	for (i = 0; i < cpus; i++)
		CPU_SET(i, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		fail("conc: sched_setaffinity to %d CPUs: %s", cpus, strerror(errno));
	if (read(go, &c, 1) != 1)
		fail("conc: loader %d: no start signal", l);
	for (r = 0; r < rounds; r++) {
		int n = pick(l, r), k, fd;
		double t0;

		for (k = 0; mix_insns[k] != n; k++)
			;
		t0 = now_ns();
		fd = load_insns(progs[k], n, NULL, 0);
		sh->load_ns[l * rounds + r] = now_ns() - t0;
		sh->insns[l * rounds + r] = n;
		if (fd < 0)
			__atomic_add_fetch(&sh->failed, 1, __ATOMIC_RELAXED);
		else
			close(fd);
	}
	_exit(0);
}

static void batch(struct shared *sh, const struct bpf_insn *const progs[NMIX], int cpus,
		  int loaders, int rounds)
{
	char cas[16], go_bytes[MAX_LOADERS];
	double m0, m1, t0;
	int pipefd[2], l, i, status;

	memset(sh, 0, sizeof(*sh));
	fflush(stdout);	/* or a loader that exits would print the parent's rows again */
	if (pipe(pipefd))
		fail("conc: pipe: %s", strerror(errno));
	for (l = 0; l < loaders; l++) {
		pid_t pid = fork();

		if (pid < 0)
			fail("conc: fork: %s", strerror(errno));
		if (!pid) {
			close(pipefd[1]);
			loader(sh, progs, l, rounds, cpus, pipefd[0]);
		}
	}
	close(pipefd[0]);
	m0 = pool_misses();
	t0 = now_ns();
	memset(go_bytes, 'g', sizeof(go_bytes));
	if (write(pipefd[1], go_bytes, loaders) != loaders)
		fail("conc: start signal: %s", strerror(errno));
	close(pipefd[1]);
	for (l = 0; l < loaders; l++) {
		if (wait(&status) < 0)
			fail("conc: wait: %s", strerror(errno));
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			fail("conc: a loader of %d on %d CPUs failed", loaders, cpus);
	}
	m1 = pool_misses();
	snprintf(cas, sizeof(cas), "cpus%d", cpus);
	for (i = 0; i < loaders * rounds; i++) {
		row("conc", cas, loaders, "load_ns", "ns", i, false, sh->load_ns[i]);
		row("conc", cas, loaders, "insns", "count", i, false, sh->insns[i]);
	}
	row("conc", cas, loaders, "failed_loads", "count", 0, false, sh->failed);
	row("conc", cas, loaders, "batch_ns", "ns", 0, false, now_ns() - t0);
	if (m0 >= 0 && m1 >= 0)
		row("conc", cas, loaders, "pool_misses", "count", 0, false, m1 - m0);
	progress("conc: %d loaders on %d CPUs: %d loads, %d failed", loaders, cpus,
		 loaders * rounds, sh->failed);
}

int bench_conc(const struct bench_opts *o)
{
	const struct bpf_insn *progs[NMIX];
	struct shared *sh;
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	int i, c, fd;

	if (o->rounds > 1000)
		fail("conc: --rounds %d: at most 1000 loads a loader", o->rounds);
	for (i = 0; i < o->ncounts; i++)
		if (o->counts[i] > MAX_LOADERS)
			fail("conc: --counts: %ld loaders, at most %d", o->counts[i], MAX_LOADERS);
	for (c = 0; c < o->ncpus; c++)
		if (o->cpus[c] > online)
			fail("conc: --cpus %ld: the guest has %ld CPUs online (boot it with more)",
			     o->cpus[c], online);
	for (i = 0; i < (int)NMIX; i++)
		progs[i] = gen_straight(mix_insns[i]);
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		fail("conc: mmap: %s", strerror(errno));
	/* One load of each size first: nothing lazily set up inside a batch. */
	for (i = 0; i < (int)NMIX; i++) {
		fd = load_insns(progs[i], mix_insns[i], NULL, 0);
		if (fd < 0)
			fail("conc: warm-up load of %d instructions: %s", mix_insns[i],
			     strerror(errno));
		close(fd);
	}
	for (c = 0; c < o->ncpus; c++)
		for (i = 0; i < o->ncounts; i++)
			batch(sh, progs, o->cpus[c], o->counts[i], o->rounds);
	fflush(stdout);
	return 0;
}
