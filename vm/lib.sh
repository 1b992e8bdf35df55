# shellcheck shell=bash
# Helpers shared by the vm/ scripts: errors, arch data, variants, paths.

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${BUILD:-$top/build}

say() { printf '%s\n' "$*" >&2; }
die() { say "${0##*/}: error: $*"; exit 1; }
run() { say "\$ $*"; "$@"; }

valid_arches() {
	local f
	for f in "$top"/vm/arches/*.conf; do basename "$f" .conf; done | paste -sd' '
}

valid_variants() {
	python3 "$top/vm/configurations.py" --variants | paste -sd' '
}

# Keys of vm/arches/*.conf, set by load_arch (used by the scripts that source this).
# shellcheck disable=SC2034
declare A_KARCH='' A_CROSS_COMPILE='' A_DEB_ARCH='' A_KVM_HOST='' A_KERNEL_IMAGE='' \
	A_KERNEL_TARGET='' A_QEMU='' A_QEMU_MACHINE='' A_QEMU_MACHINE_DETERMINISTIC='' A_QEMU_CPU_TCG='' A_QEMU_CPU_KVM='' \
	A_CONSOLE='' A_QEMU_9P_DEVICE='' A_SELFTESTS_ARCH=''

# load_arch ARCH: read vm/arches/ARCH.conf into A_<KEY> variables.
load_arch() {
	local arch=$1 file=$top/vm/arches/$1.conf key value
	[ -f "$file" ] || die "unknown ARCH '$arch' (valid: $(valid_arches))"
	while IFS='=' read -r key value; do
		case $key in '' | '#'*) continue ;; esac
		[[ $key =~ ^[A-Z0-9_]+$ ]] || die "$file: bad key '$key'"
		printf -v "A_$key" '%s' "$value"
	done <"$file"
	export A_ARCH=$arch
}

# variant_source VARIANT: "pristine" or "series" (the variant's line in vm/variants).
variant_source() {
	local v=$1 src
	src=$(python3 "$top/vm/configurations.py" --source "$v" 2>/dev/null) ||
		die "unknown VARIANT '$v' (valid: $(valid_variants))"
	[ -f "$top/vm/configs/$v.config" ] || die "variant '$v' has no vm/configs/$v.config"
	echo "$src"
}

# Source tree a variant builds from.
variant_srcdir() {
	case $(variant_source "$1") in
	pristine) echo "$build/linux-pristine" ;;
	series) echo "$build/linux" ;;
	*) die "vm/variants: variant '$1' has an unknown source (valid: pristine series)" ;;
	esac
}

# Why KVM cannot run an A_ARCH guest here, or nothing when it can: the host
# architecture, /dev/kvm, then a VM that QEMU creates and quits at once.
kvm_unavailable() {
	local host
	host=$(uname -m)
	if [ "$host" != "$A_KVM_HOST" ]; then
		echo "KVM cannot run an $A_ARCH guest on this $host host (it needs an $A_KVM_HOST host)"
	elif ! { [ -r /dev/kvm ] && [ -w /dev/kvm ]; }; then
		echo "/dev/kvm is missing or not accessible"
	elif ! echo quit | timeout 20 "$A_QEMU" -M "$A_QEMU_MACHINE" -accel kvm -cpu "$A_QEMU_CPU_KVM" \
		-nodefaults -display none -S -monitor stdio >/dev/null 2>&1; then
		echo "$A_QEMU could not create a KVM guest on this host"
	fi
}

kernel_objdir() { echo "$build/kernel/$1-$2"; }

# kernel_make_init SRC OBJ: set KMAKE, the make command of a kernel build of
# SRC into OBJ (needs load_arch), with ccache and a fixed build identity, so
# that two builds of the same tree are the same.
# shellcheck disable=SC2034
KMAKE=()
kernel_make_init() {
	export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}
	export CCACHE_BASEDIR=$build
	# Hit the cache from any clone: -g builds otherwise hash the working directory.
	export CCACHE_NOHASHDIR=1
	export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
	export KBUILD_BUILD_TIMESTAMP="2024-01-01 00:00:00 UTC"
	export KBUILD_BUILD_USER=bpfwp KBUILD_BUILD_HOST=qemu KBUILD_BUILD_VERSION=1
	# shellcheck disable=SC2034
	KMAKE=(make -C "$1" O="$2" ARCH="$A_KARCH" LLVM=-19
		CC="ccache clang-19" HOSTCC="ccache clang-19" -j"$(nproc)")
}
rootfs_dir() { echo "$build/rootfs/$1-$2"; }

# variant_fragment VARIANT: vm/configs/common.config, then VARIANT's
# fragment with each "#include NAME.config" line replaced by that fragment.
variant_fragment() {
	local line
	cat "$top/vm/configs/common.config"
	while IFS= read -r line; do
		if [[ $line =~ ^#include\ ([a-z0-9-]+\.config)$ ]]; then
			[ -f "$top/vm/configs/${BASH_REMATCH[1]}" ] ||
				die "vm/configs/$1.config includes ${BASH_REMATCH[1]}, which does not exist"
			cat "$top/vm/configs/${BASH_REMATCH[1]}"
		else
			printf '%s\n' "$line"
		fi
	done <"$top/vm/configs/$1.config"
}

# The payload directories every guest initramfs holds, one a line (the
# top-level file guest-payloads names them; vm/ itself knows none of them).
guest_payloads() {
	awk -v top="$top" '!/^#/ && NF { print top "/" $1 }' "$top/guest-payloads"
}
