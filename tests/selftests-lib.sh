# The BPF selftests' shell helpers, for tests/run, tests/selftests and
# tests/build-selftests; sourced after vm/lib.sh (load_arch, kernel_objdir,
# variant_srcdir, $top, $build).
# shellcheck shell=bash
# shellcheck disable=SC2154 # top and build come from vm/lib.sh

# The selftests subset of tests/selftests.list: subset_runners prints its
# runners (test_progs when it names test_progs tests), subset_progs_args the
# test_progs arguments that select its tests.
subset_names() { grep -v '^#' "$top/tests/selftests.list" | awk 'NF { print $1 }'; }
subset_runners() {
	local t progs=
	for t in $(subset_names); do
		case $t in
		test_verifier | test_tag | test_bpf) echo "$t" ;;
		*) progs=test_progs ;;
		esac
	done
	[ -z "$progs" ] || echo "$progs"
}
subset_progs_args() {
	local t
	for t in $(subset_names); do
		case $t in test_verifier | test_tag | test_bpf) ;; *) echo "$t" ;; esac
	done | paste -sd, | sed 's/^./-t &/'
}

# What tests/build-selftests builds for RUNNERs (test_bpf is lib/test_bpf.ko,
# built with the kernel), and stage_selftests ARCH VARIANT DIR RUNNER...,
# which hard-links the built runners, objects and modules into DIR/selftests
# for a guest (over 9p), with test_progs.deny, the tests test_progs skips
# by name (tests/selftests-skip and the tree's DENYLISTs).
selftests_targets() {
	local r
	for r in "$@"; do [ "$r" = test_bpf ] || echo "$r"; done
	echo bpf_testmod.ko
}
stage_selftests() {
	local arch=$1 variant=$2 dir=$3 obj
	shift 3
	obj=$(kernel_objdir "$arch" "$variant")
	mkdir -p "$dir/selftests"
	find "$build/selftests/$arch-$variant" -maxdepth 1 -type f \
		-exec ln -f -t "$dir/selftests" {} +
	# Sources and scripts the runners read at run time (btf_dump compares
	# against progs/btf_dump_test_case_*.c) are symlinks into the tree,
	# which the guest cannot follow: link their targets. bpftool, also a
	# symlink, is the host's and stays out.
	find "$build/selftests/$arch-$variant" -maxdepth 1 -type l \( -name '*.c' -o -name '*.sh' \) \
		-exec ln -fL -t "$dir/selftests" {} +
	if [[ " $* " == *" test_progs "* ]]; then
		local st
		st=$(variant_srcdir "$variant")/tools/testing/selftests/bpf
		python3 "$top/tests/selftests.py" deny "$obj/.config" "$top/tests/selftests-skip" \
			"$st/DENYLIST" "$st/DENYLIST.$A_SELFTESTS_ARCH" >"$dir/selftests/test_progs.deny"
	fi
	if [[ " $* " == *" test_bpf "* ]]; then
		[ -f "$obj/lib/test_bpf.ko" ] ||
			die "no $obj/lib/test_bpf.ko: vm/configs/common.config has CONFIG_TEST_BPF=m; rebuild with vm/build-kernel $arch $variant"
		ln -f "$obj/lib/test_bpf.ko" "$dir/selftests/"
	fi
}
