// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * insn_classes - QEMU TCG plugin counting the guest's cache, TLB and barrier
 * maintenance instructions (TLBI, DSB, DMB, ISB, DC, IC, AT) on aarch64.
 *
 *   -plugin libinsn_classes.so,out=PATH[,marker=N]
 *
 * The guest brackets the region it wants measured with marker hints,
 * HINT #N (default 120, an unallocated hint that executes as a NOP).  Each
 * time a vCPU executes one, a JSON line with the cumulative counts since
 * start is appended to PATH:
 *
 *   {"seq": 0, "vcpu": 1, "counts": {"at": 0, "dc": 1, "dc.cvau": 1, ...}}
 *
 * and one more at exit, with "seq": "exit" and "vcpu": null.  "counts" holds
 * a total for every class (always present, zero or not) and one
 * "<class>.<op>" key per operation executed at least once; keys sorted.
 * The difference of two lines is what ran between the two markers, on all
 * vCPUs together.
 *
 * Modelled on contrib/plugins/howvec.c of QEMU 7.2, without its GLib use:
 * the plugin API header of 7.2 needs only libc.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qemu-plugin.h>

#include "insn_classes.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

/*
 * One counter per (class, op) pair met at translation time.  Exec callbacks
 * get a pointer to their slot as userdata, so the slots must never move:
 * a fixed array, sized by the decoder's bound on distinct pairs.
 */
struct op_count {
	int cls;			/* enum insn_cls */
	const char *op;
	char key[48];			/* "<class>.<op>", the JSON key */
	uint64_t count;			/* atomic */
};

static struct op_count ops[INSN_MAX_OPS];
static size_t nr_ops;			/* under lock */

/*
 * Serialises slot creation (translation may run on several vCPU threads)
 * and the writes to the output file, so that lines never interleave and
 * "seq" follows file order.
 */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static FILE *out;
static uint64_t next_seq;		/* under lock */

/* Find or create the slot of (@cls, @op); called with lock held. */
static struct op_count *op_slot(int cls, const char *op)
{
	struct op_count *s;
	size_t i;

	for (i = 0; i < nr_ops; i++) {
		s = &ops[i];
		if (s->cls == cls && strcmp(s->op, op) == 0)
			return s;
	}
	/* Cannot happen while INSN_MAX_OPS holds; drop rather than crash. */
	if (nr_ops == INSN_MAX_OPS)
		return NULL;
	s = &ops[nr_ops++];
	s->cls = cls;
	s->op = op;
	snprintf(s->key, sizeof(s->key), "%s.%s", insn_cls_names[cls], op);
	return s;
}

/*
 * The only per-instruction cost: one relaxed atomic add.  Relaxed is
 * enough since the counters are independent statistics that order no other
 * data.  Class totals are not kept separately but summed from the op
 * counters when a line is written, which keeps this callback to one add.
 */
static void vcpu_insn_exec(unsigned int vcpu_index, void *udata)
{
	struct op_count *s = udata;

	__atomic_fetch_add(&s->count, 1, __ATOMIC_RELAXED);
}

struct json_kv {
	const char *key;
	uint64_t val;
};

static int kv_cmp(const void *a, const void *b)
{
	return strcmp(((const struct json_kv *)a)->key,
		      ((const struct json_kv *)b)->key);
}

/*
 * Write one line, @seq being a JSON value ("0", "\"exit\"") and @vcpu
 * likewise ("3", "null").  Called with lock held.
 */
static void write_counts(const char *seq, const char *vcpu)
{
	static struct json_kv kv[INSN_NR_CLASSES + INSN_MAX_OPS];
	uint64_t total[INSN_NR_CLASSES] = { 0 };
	size_t n = 0, i;
	int c;

	/* user mode: a child thread may hit a marker after plugin_exit() */
	if (!out)
		return;

	for (i = 0; i < nr_ops; i++) {
		uint64_t v = __atomic_load_n(&ops[i].count, __ATOMIC_RELAXED);

		total[ops[i].cls] += v;
		/* only ops that ran: a key per op "seen so far" */
		if (v)
			kv[n++] = (struct json_kv){ ops[i].key, v };
	}
	for (c = INSN_NONE + 1; c < INSN_NR_CLASSES; c++) {
		/* the markers are the "seq" numbers, not a count */
		if (c == INSN_MARK)
			continue;
		kv[n++] = (struct json_kv){ insn_cls_names[c], total[c] };
	}
	qsort(kv, n, sizeof(kv[0]), kv_cmp);

	fprintf(out, "{\"seq\": %s, \"vcpu\": %s, \"counts\": {", seq, vcpu);
	for (i = 0; i < n; i++)
		fprintf(out, "%s\"%s\": %" PRIu64, i ? ", " : "", kv[i].key,
			kv[i].val);
	fputs("}}\n", out);
	/* at once: the guest may be killed, and readers tail the file */
	fflush(out);
}

static void vcpu_marker_exec(unsigned int vcpu_index, void *udata)
{
	char seq[24], vcpu[16];

	pthread_mutex_lock(&lock);
	snprintf(seq, sizeof(seq), "%" PRIu64, next_seq++);
	snprintf(vcpu, sizeof(vcpu), "%u", vcpu_index);
	write_counts(seq, vcpu);
	pthread_mutex_unlock(&lock);
}

static void vcpu_tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);
	size_t i;

	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		const char *cls, *op;
		struct op_count *s;
		uint32_t word;
		int c;

		if (qemu_plugin_insn_size(insn) != sizeof(word))
			continue;
		/* the data pointer need not be aligned */
		memcpy(&word, qemu_plugin_insn_data(insn), sizeof(word));

		c = insn_class(word, &cls, &op);
		if (c == INSN_NONE)
			continue;	/* no callback: costs nothing at run time */

		if (c == INSN_MARK) {
			qemu_plugin_register_vcpu_insn_exec_cb(insn, vcpu_marker_exec,
							       QEMU_PLUGIN_CB_NO_REGS,
							       NULL);
			continue;
		}

		pthread_mutex_lock(&lock);
		s = op_slot(c, op);
		pthread_mutex_unlock(&lock);
		if (s)
			qemu_plugin_register_vcpu_insn_exec_cb(insn, vcpu_insn_exec,
							       QEMU_PLUGIN_CB_NO_REGS,
							       s);
	}
}

static void plugin_exit(qemu_plugin_id_t id, void *udata)
{
	pthread_mutex_lock(&lock);
	write_counts("\"exit\"", "null");
	if (out)
		fclose(out);
	out = NULL;
	pthread_mutex_unlock(&lock);
}

static int parse_uint(const char *s, unsigned long *val)
{
	char *end;

	errno = 0;
	*val = strtoul(s, &end, 0);
	return (errno || end == s || *end || *s == '-') ? -1 : 0;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info,
					   int argc, char **argv)
{
	const char *path = NULL;
	unsigned long marker = INSN_MARKER_DEFAULT;
	int i;

	/* insn_class() decodes A64 only */
	if (strcmp(info->target_name, "aarch64") != 0) {
		fprintf(stderr, "insn_classes: guest is %s, only aarch64 is supported\n",
			info->target_name);
		return -1;
	}

	for (i = 0; i < argc; i++) {
		const char *arg = argv[i];

		if (strncmp(arg, "out=", 4) == 0 && arg[4]) {
			path = arg + 4;
		} else if (strncmp(arg, "marker=", 7) == 0) {
			if (parse_uint(arg + 7, &marker) ||
			    insn_class_set_marker(marker)) {
				fprintf(stderr, "insn_classes: bad %s: want 0..%d (HINT #imm)\n",
					arg, INSN_MARKER_MAX);
				return -1;
			}
		} else {
			fprintf(stderr, "insn_classes: unknown argument '%s'\n"
				"usage: -plugin libinsn_classes.so,out=PATH[,marker=N]\n",
				arg);
			return -1;
		}
	}
	if (!path) {
		fprintf(stderr, "insn_classes: missing required argument out=PATH\n"
			"usage: -plugin libinsn_classes.so,out=PATH[,marker=N]\n");
		return -1;
	}

	/* append, so several QEMU runs can share one file; seq restarts at 0 */
	out = fopen(path, "a");
	if (!out) {
		fprintf(stderr, "insn_classes: cannot open %s: %s\n", path,
			strerror(errno));
		return -1;
	}

	qemu_plugin_register_vcpu_tb_trans_cb(id, vcpu_tb_trans);
	qemu_plugin_register_atexit_cb(id, plugin_exit, NULL);
	return 0;
}
