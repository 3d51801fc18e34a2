#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# One golden invalid case: `hgrun validate scenario.yaml` in the case
# directory must exit 2 and print the line in `expected` as its first error.
# Usage: check_invalid.sh HGRUN DIR [EMULATOR ARGS...]; a cross build passes
# its CMAKE_CROSSCOMPILING_EMULATOR (qemu-aarch64 -L /, scripts/arm64.sh).
set -u
hgrun=$1
dir=$2
shift 2
cd "$dir" || exit 1
err=$("$@" "$hgrun" validate scenario.yaml 2>&1 >/dev/null)
rc=$?
want=$(cat expected)
got=$(printf '%s\n' "$err" | head -n 1)
if [ "$rc" -ne 2 ]; then
	echo "FAIL: exit status $rc, want 2"; printf '%s\n' "$err"; exit 1
fi
if [ "$got" != "$want" ]; then
	printf 'FAIL: first error differs\n want: %s\n  got: %s\n' "$want" "$got"; exit 1
fi
echo "ok: $want"
