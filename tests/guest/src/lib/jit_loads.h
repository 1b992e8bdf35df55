/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Loads that exercise the BPF JIT's allocations: single- and
 * multi-function programs, fentry/fexit trampolines and struct_ops
 * trampolines. Each returns the number of programs it loaded and ran
 * correctly (> 0); -errno if the kernel refused a load, an attach or a
 * run; or JL_WRONG (with a FAIL line) if a program returned a wrong value.
 */
#ifndef JIT_LOADS_H
#define JIT_LOADS_H

#include <bpf/libbpf.h>

#define JL_WRONG (-100000)

/*
 * If set, called by jl_tracing() before it detaches its programs, whose
 * unlinking rebuilds the trampoline.
 */
extern void (*jl_before_detach)(void);

/* N instructions (2 to JL_MAX_INSNS): r0 = 0, N - 2 times r0 += 1. */
#define JL_MAX_INSNS 4096
int jl_single(int n);
/* Four functions calling each other. */
int jl_multi(void);
/* fentry and fexit on TARGET ("traced" of jit_calls): two loads and a trampoline. */
int jl_tracing(struct bpf_program *target);
/* A bpf_dummy_ops test run: a load, and a trampoline per run. */
int jl_struct_ops(void);

#endif
