// SPDX-License-Identifier: GPL-2.0
/*
 * fill: how many BPF JIT objects of each kind fit in the BPF JIT region
 * before the first load fails. Meant for a small region
 * (bpf_jit_region=4M..32M); analysis/sizing.py fits a model to the counts
 * and extrapolates it to large regions. Each class starts once the region
 * is back to its use at boot (every earlier object freed, which deferred
 * frees make take a while) and unloads all it loaded. Classes:
 *   p50         programs whose JIT image is at most 500 bytes (half of the
 *               programs of real hosts are smaller)
 *   p75         at most 2 KiB (three quarters are smaller)
 *   largest     as large as the largest selftests program this suite loads
 *               (pyperf180: 229,252 bytes of JIT code on series)
 *   trampoline  fentry trampolines, each on a target program of its own:
 *               one object is the target, the fentry program and the
 *               trampoline (regions up to SLOW_MAX_MIB only: each
 *               object takes two skeleton loads and an attach)
 *   struct_ops  tcp_congestion_ops maps of three members, the map update
 *               builds their image (a page); only the first registers (a
 *               name is registered once), the others keep their image
 *               (regions up to SLOW_MAX_MIB only)
 *   mix         a fixed pseudo-random sequence of 50% p50, 25% p75 and 25%
 *               16 KiB programs; then, --churn times, a pseudo-random half
 *               is unloaded and the region filled again
 * Rows (workload fill, case = class, x = region size in MiB), round 0
 * unless said:
 *   objects             objects loaded before the first failure
 *   errno               the failed load's errno
 *   region_failure      1 if the region counted a failed allocation then
 *   object_jited_bytes  JIT image bytes per object (programs and trampolines)
 *   allocations         region allocations at the failure (packs and
 *                       images larger than a pack)
 *   in_use_bytes, high_water_bytes  region counters at the failure
 *   back_to_start       1 if in_use_bytes came back to its start value
 *   refill_objects      mix: objects loaded again after unloading half,
 *                       round = churn cycle (1..--churn); a refill that
 *                       fails is retried after a pause until a retry loads
 *                       nothing more, so that frees still deferred (RCU,
 *                       then a work item) do not pass for a full region
 * and, case "region", what the region holds before any class: its use at
 * boot (boot_in_use_bytes, boot_allocations: BPF JIT allocations), the
 * staging pool, which the region's counters do not count (pool_bytes,
 * staging_pool_bytes of bpf_jit/wp; 0 without write protection), and its
 * reserve (reserve_bytes, 0 when the kernel has none), which
 * analysis/sizing.py subtracts from what packs can use.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "bench.h"
#include "bench_attach.skel.h"
#include "bench_calls.skel.h"
#include "bench_struct_ops.skel.h"

#define REGION_FILE "/sys/kernel/debug/bpf_jit/region"
#define P50_BYTES 500
#define P75_BYTES 2048
#define MIX_LARGE_BYTES 16384
#define LARGEST_BYTES 229252	/* pyperf180's JIT image on series */
#define SLOW_MAX_MIB 8
#define SETTLE_TRIES 1200	/* 60 s in 50 ms steps */
#define REFILL_TRIES 20		/* 4 s in 200 ms steps */

struct region {
	double size, in_use, high_water, allocations, failed, reserve;
	bool on;
};

static void region_read(struct region *r)
{
	FILE *f = fopen(REGION_FILE, "r");
	char key[64], val[64];
	int n = 0;

	if (!f)
		fail("%s: %s (fill needs a kernel with the BPF JIT region)", REGION_FILE,
		     strerror(errno));
	memset(r, 0, sizeof(*r));
	while (fscanf(f, " %63[^:]: %63s", key, val) == 2) {
		double v = strtod(val, NULL);

		n++;
		if (!strcmp(key, "mode"))
			r->on = !strcmp(val, "on");
		else if (!strcmp(key, "size"))
			r->size = v;
		else if (!strcmp(key, "in_use_bytes"))
			r->in_use = v;
		else if (!strcmp(key, "high_water_bytes"))
			r->high_water = v;
		else if (!strcmp(key, "allocations"))
			r->allocations = v;
		else if (!strcmp(key, "failed_allocations"))
			r->failed = v;
		else if (!strcmp(key, "reserve_bytes")) {
			r->reserve = v;
			n--;	/* optional: kernels before the reserve have none */
		} else
			n--;
	}
	fclose(f);
	if (n != 6)
		fail("%s: read %d of the 6 keys fill needs", REGION_FILE, n);
}

/* staging_pool_bytes of bpf_jit/wp: the pool's VA in the region; 0 without it. */
static double pool_bytes(void)
{
	return wp_value("staging_pool_bytes", 0);
}

/*
 * Wait until deferred frees are done: the region's use is back to its use
 * at boot, BOOT (a pack stays allocated while any program is in it).
 */
static bool region_settle(double boot)
{
	struct region r;
	int i;

	for (i = 0; i < SETTLE_TRIES; i++) {
		region_read(&r);
		if (r.in_use == boot)
			return true;
		usleep(50000);
	}
	return false;
}

/* One loaded object: up to three fds and the skeletons that own them. */
struct object {
	int fd;
	struct bench_calls *target;
	struct bench_attach *tracer;
	struct bpf_link *link;
	struct bench_struct_ops *ops;
};

struct objects {
	struct object *v;
	long n, cap;
};

static struct object *objects_add(struct objects *o)
{
	if (o->n == o->cap) {
		o->cap = o->cap ? 2 * o->cap : 4096;
		o->v = realloc(o->v, o->cap * sizeof(*o->v));
		if (!o->v)
			fail("out of memory for %ld objects", o->cap);
	}
	memset(&o->v[o->n], 0, sizeof(o->v[0]));
	return &o->v[o->n++];
}

static void object_free(struct object *ob)
{
	if (ob->link)
		bpf_link__destroy(ob->link);
	if (ob->tracer)
		bench_attach__destroy(ob->tracer);
	if (ob->target)
		bench_calls__destroy(ob->target);
	if (ob->ops)
		bench_struct_ops__destroy(ob->ops);
	if (ob->fd > 0)
		close(ob->fd);
	memset(ob, 0, sizeof(*ob));
}

/* A straight-line program (gen.c) of the most instructions whose JIT image is at most BYTES. */
struct sized {
	struct bpf_insn *insns;
	int cnt;
	__u32 jited;
};

static __u32 jited_of(int cnt)
{
	struct bpf_insn *p = gen_straight(cnt);
	__u32 len, nf;
	int fd = load_insns(p, cnt, NULL, 0);

	if (fd < 0 || prog_jit_info(fd, &len, &nf))
		fail("fill: load a %d-instruction program to size the classes: %s", cnt,
		     strerror(errno));
	close(fd);
	free(p);
	return len;
}

static struct sized sized_prog(__u32 bytes)
{
	__u32 j64 = jited_of(64), j1024 = jited_of(1024);
	double per_insn = (j1024 - j64) / 960.0;
	struct sized s;

	s.cnt = 64 + (int)((bytes - (double)j64) / per_insn);
	while ((s.jited = jited_of(s.cnt)) > bytes)
		s.cnt--;
	s.insns = gen_straight(s.cnt);
	return s;
}

static int load_sized(const struct sized *s, struct object *ob)
{
	ob->fd = load_insns(s->insns, s->cnt, NULL, 0);
	return ob->fd < 0 ? -errno : 0;
}

/* A target program of its own, an fentry program on it, attached. */
static int load_trampoline(struct object *ob)
{
	struct bpf_program *p;
	int err;

	ob->target = bench_calls__open();
	if (!ob->target)
		return -errno;
	bpf_object__for_each_program(p, ob->target->obj)
		bpf_program__set_autoload(p, p == ob->target->progs.traced);
	err = bench_calls__load(ob->target);
	if (err)
		return err;
	ob->tracer = bench_attach__open();
	if (!ob->tracer)
		return -errno;
	bpf_program__set_autoload(ob->tracer->progs.on_exit, false);
	bpf_program__set_autoload(ob->tracer->progs.new_replace_me, false);
	err = bpf_program__set_attach_target(ob->tracer->progs.on_entry,
					     bpf_program__fd(ob->target->progs.traced), "traced");
	if (!err)
		err = bench_attach__load(ob->tracer);
	if (err)
		return err;
	ob->link = bpf_program__attach_trace(ob->tracer->progs.on_entry);
	return ob->link ? 0 : -errno;
}

/* A tcp_congestion_ops map, its image built by the map update. */
static int load_struct_ops(struct object *ob, bool first)
{
	struct bpf_link *l;
	int err;

	ob->ops = bench_struct_ops__open();
	if (!ob->ops)
		return -errno;
	bpf_program__set_autoload(ob->ops->progs.test_1, false);
	bpf_map__set_autocreate(bpf_object__find_map_by_name(ob->ops->obj, "dummy"), false);
	err = bench_struct_ops__load(ob->ops);
	if (err)
		return err;
	/*
	 * Update, then link (register). The update builds the image; the
	 * link of every map but the first fails with EEXIST, as its name is
	 * taken, and leaves the map's image in place.
	 */
	l = bpf_map__attach_struct_ops(ca_map(ob->ops));
	if (l) {
		ob->link = l;
		return 0;
	}
	err = -errno;
	return err == -EEXIST && !first ? 0 : err;
}

enum kind { K_SIZED, K_TRAMPOLINE, K_STRUCT_OPS };

struct class {
	const char *name;
	enum kind kind;
	const struct sized *sized;
};

static int load_one(const struct class *c, struct object *ob, bool first)
{
	switch (c->kind) {
	case K_SIZED:
		return load_sized(c->sized, ob);
	case K_TRAMPOLINE:
		return load_trampoline(ob);
	case K_STRUCT_OPS:
		return load_struct_ops(ob, first);
	}
	return -EINVAL;
}

static double jited_bytes(const struct object *ob)
{
	__u32 len, nf;
	double sum = 0;

	if (ob->fd > 0 && !prog_jit_info(ob->fd, &len, &nf))
		sum += len;
	if (ob->target && !prog_jit_info(bpf_program__fd(ob->target->progs.traced), &len, &nf))
		sum += len;
	if (ob->tracer && !prog_jit_info(bpf_program__fd(ob->tracer->progs.on_entry), &len, &nf))
		sum += len;
	return sum;
}

static void emit(const char *cas, long mib, const char *metric, const char *unit, int round,
		 double v)
{
	row("fill", cas, mib, metric, unit, round, false, v);
}

/* Load objects of class C until one fails; returns how many loaded. */
static long fill_until_failure(const struct class *c, struct objects *objs, int *err)
{
	long n = 0;

	for (;;) {
		struct object *ob = objects_add(objs);

		*err = load_one(c, ob, objs->n == 1);
		if (*err) {
			object_free(ob);
			objs->n--;
			return n;
		}
		n++;
		if (n % 5000 == 0)
			progress("fill %s: %ld loaded", c->name, n);
	}
}

static void unload_all(struct objects *objs)
{
	long i;

	for (i = 0; i < objs->n; i++)
		object_free(&objs->v[i]);
	objs->n = 0;
}

static void report_failure(const char *cas, long mib, long n, int err, const struct region *b,
			   const struct region *r)
{
	emit(cas, mib, "objects", "count", 0, n);
	emit(cas, mib, "errno", "errno", 0, -err);
	emit(cas, mib, "region_failure", "bool", 0, r->failed > b->failed);
	emit(cas, mib, "allocations", "count", 0, r->allocations - b->allocations);
	emit(cas, mib, "in_use_bytes", "bytes", 0, r->in_use - b->in_use);
	emit(cas, mib, "high_water_bytes", "bytes", 0, r->high_water);
}

static void fill_class(const struct class *c, long mib, double boot)
{
	struct objects objs = {};
	struct region b, r;
	double jited = 0, t0;
	long n, i;
	int err;

	if (!region_settle(boot))
		fail("fill %s: the region's use did not come back to %.0f bytes", c->name, boot);
	region_read(&b);
	progress("fill %s: region %ld MiB", c->name, mib);
	t0 = now_ns();
	n = fill_until_failure(c, &objs, &err);
	region_read(&r);
	for (i = 0; i < n; i++)
		jited += jited_bytes(&objs.v[i]);
	progress("fill %s: %ld objects, then %s (%.0f s)", c->name, n, strerror(-err),
		 (now_ns() - t0) / 1e9);
	report_failure(c->name, mib, n, err, &b, &r);
	emit(c->name, mib, "object_jited_bytes", "bytes", 0, n ? jited / n : 0);
	unload_all(&objs);
	emit(c->name, mib, "back_to_start", "bool", 0, region_settle(boot));
	free(objs.v);
	fflush(stdout);
}

/* xorshift32: the same sequence in every boot. */
static __u32 rnd(__u32 *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

static const struct sized *mix_pick(const struct sized *mix[3], __u32 *seed)
{
	__u32 v = rnd(seed) % 4;

	return v < 2 ? mix[0] : mix[v - 1];
}

static long mix_fill(const struct sized *mix[3], struct objects *objs, __u32 *seed, int *err)
{
	long n = 0;

	for (;;) {
		struct class c = { "mix", K_SIZED, mix_pick(mix, seed) };
		struct object *ob = objects_add(objs);

		*err = load_one(&c, ob, false);
		if (*err) {
			object_free(ob);
			objs->n--;
			return n;
		}
		n++;
	}
}

/*
 * Fill again after unloading: the unloaded programs' chunks come back only
 * after an RCU grace period and a work item, so a failed refill is retried
 * after a pause until a retry loads nothing more (at most REFILL_TRIES).
 */
static long mix_refill(const struct sized *mix[3], struct objects *objs, __u32 *seed, int *err)
{
	long n = 0, more;
	int i;

	for (i = 0; i < REFILL_TRIES; i++) {
		usleep(200000);
		more = mix_fill(mix, objs, seed, err);
		n += more;
		if (i && !more)
			break;
	}
	return n;
}

static void fill_mix(const struct sized *mix[3], long mib, int churn, double boot)
{
	struct objects objs = {};
	struct region b, r;
	__u32 seed = 0x5eed1234;
	long n, i, kept;
	int err, round;

	if (!region_settle(boot))
		fail("fill mix: the region's use did not come back to %.0f bytes", boot);
	region_read(&b);
	progress("fill mix: region %ld MiB", mib);
	n = mix_fill(mix, &objs, &seed, &err);
	region_read(&r);
	report_failure("mix", mib, n, err, &b, &r);
	for (round = 1; round <= churn; round++) {
		/* Unload a pseudo-random half, keep the rest in place. */
		for (i = 0, kept = 0; i < objs.n; i++) {
			if (rnd(&seed) & 1)
				object_free(&objs.v[i]);
			else
				objs.v[kept++] = objs.v[i];
		}
		objs.n = kept;
		n = mix_refill(mix, &objs, &seed, &err);
		progress("fill mix: churn %d: %ld kept, %ld loaded again", round, kept, n);
		emit("mix", mib, "kept_objects", "count", round, kept);
		emit("mix", mib, "refill_objects", "count", round, n);
	}
	unload_all(&objs);
	emit("mix", mib, "back_to_start", "bool", 0, region_settle(boot));
	free(objs.v);
	fflush(stdout);
}

int bench_fill(const struct bench_opts *o)
{
	struct rlimit nofile = { 1 << 20, 1 << 20 };
	struct sized p50, p75, large, largest;
	const struct sized *mix[3] = { &p50, &p75, &large };
	struct region r;
	double boot;
	long mib;

	if (setrlimit(RLIMIT_NOFILE, &nofile))
		fail("setrlimit(RLIMIT_NOFILE, 2^20): %s", strerror(errno));
	region_read(&r);
	if (!r.on)
		fail("fill: the BPF JIT region is off (boot with bpf_jit_region=<size>)");
	mib = r.size / (1 << 20);
	boot = r.in_use;
	emit("region", mib, "boot_in_use_bytes", "bytes", 0, r.in_use);
	emit("region", mib, "boot_allocations", "count", 0, r.allocations);
	emit("region", mib, "reserve_bytes", "bytes", 0, r.reserve);
	emit("region", mib, "pool_bytes", "bytes", 0, pool_bytes());
	p50 = sized_prog(P50_BYTES);
	p75 = sized_prog(P75_BYTES);
	large = sized_prog(MIX_LARGE_BYTES);
	largest = sized_prog(LARGEST_BYTES);
	progress("fill: classes of %d, %d, %d and %d instructions (%u, %u, %u, %u bytes)",
		 p50.cnt, p75.cnt, large.cnt, largest.cnt, p50.jited, p75.jited, large.jited,
		 largest.jited);
	{
		const struct class classes[] = {
			{ "p50", K_SIZED, &p50 }, { "p75", K_SIZED, &p75 },
			{ "largest", K_SIZED, &largest }, { "trampoline", K_TRAMPOLINE, NULL },
			{ "struct_ops", K_STRUCT_OPS, NULL },
		};
		size_t i;

		for (i = 0; i < sizeof(classes) / sizeof(classes[0]); i++) {
			if (classes[i].kind != K_SIZED && mib > SLOW_MAX_MIB) {
				progress("fill %s: not above %d MiB", classes[i].name,
					 SLOW_MAX_MIB);
				continue;
			}
			fill_class(&classes[i], mib, boot);
		}
	}
	fill_mix(mix, mib, o->rounds, boot);
	return 0;
}
