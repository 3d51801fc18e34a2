#!/usr/bin/env bash
# Installs what hgrun needs (Debian packages, Python packages) when missing,
# builds it into build/, installs it (`cmake --install`: PREFIX/bin/hgrun,
# PREFIX/share/hgrun/schemas, PREFIX/share/doc/hgrun; PREFIX is $HG_PREFIX,
# else /usr/local as root and ~/.local otherwise), and installs the analysis
# stage (analysis/, the `hgreport` command) in editable mode so it follows
# this checkout.  Both commands end up on PATH, or it says what to add.  Safe
# to run again: it only does what is missing, and installs hgrun anew (a
# rebuild reaches PATH).
set -euo pipefail
cd "$(dirname "$0")/.."

debs=(build-essential cmake pkg-config libyaml-dev libcyaml-dev libjansson-dev clang libclang-rt-dev)
# Packages only some tests use (CI sets HG_TEST_DEBS="slurm-wlm munge stress-ng"
# for tests/e2e/test_slurm.py and test_stress_ng.py, which skip without them).
read -r -a extra <<< "${HG_TEST_DEBS:-}"
debs+=("${extra[@]}")
missing=()
for p in "${debs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
	if [ "$(id -u)" -ne 0 ]; then
		echo "setup: missing Debian packages: ${missing[*]}; run: sudo apt-get install ${missing[*]}" >&2
		exit 1
	fi
	echo "setup: installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if ! python3 -c 'import pytest, jsonschema, yaml, numpy, matplotlib, google.protobuf, perfetto' 2>/dev/null; then
	echo "setup: installing Python packages (tests/requirements.txt)"
	python3 -m pip install -q -r tests/requirements.txt 2>/dev/null ||
		python3 -m pip install -q --break-system-packages -r tests/requirements.txt
fi

# hgreport: `pip install -e ./analysis` (the ./ matters: a bare name would be
# looked up in the package index).  Editable: the installed command runs this
# checkout's code, so a `git pull` needs no reinstall.
installed_from=$(cd / && python3 -c 'import hgreport, pathlib; print(pathlib.Path(hgreport.__file__).resolve().parent)' 2>/dev/null || true)
if [ "$installed_from" != "$PWD/analysis/hgreport" ]; then
	echo "setup: installing hgreport (pip install -e ./analysis)"
	python3 -m pip install -q -e ./analysis 2>/dev/null ||
		python3 -m pip install -q --break-system-packages -e ./analysis
	command -v pyenv > /dev/null && pyenv rehash 2>/dev/null || true
fi
if ! command -v hgreport > /dev/null; then
	bindir=$(python3 -c 'import sysconfig; print(sysconfig.get_path("scripts"))')
	echo "setup: hgreport is installed in $bindir, which is not on PATH: add it (export PATH=\"$bindir:\$PATH\") or run python3 -m hgreport" >&2
fi

cmake -S . -B build -DCMAKE_BUILD_TYPE=Release ${HG_CMAKE_FLAGS:-} >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
echo "setup: built build/hgrun ($(build/hgrun --version))"

if [ -z "${HG_PREFIX:-}" ]; then
	if [ "$(id -u)" -eq 0 ]; then HG_PREFIX=/usr/local; else HG_PREFIX=$HOME/.local; fi
fi
cmake --install build --prefix "$HG_PREFIX" >/dev/null
echo "setup: installed $HG_PREFIX/bin/hgrun (scenario schema: $("$HG_PREFIX/bin/hgrun" schema --path))"
case ":$PATH:" in
*":$HG_PREFIX/bin:"*)
	found=$(command -v hgrun || true)
	if [ "$found" != "$HG_PREFIX/bin/hgrun" ]; then
		echo "setup: 'hgrun' on PATH is $found, ahead of $HG_PREFIX/bin/hgrun: remove it or put $HG_PREFIX/bin first" >&2
	fi ;;
*)
	echo "setup: $HG_PREFIX/bin is not on PATH: add it (export PATH=\"$HG_PREFIX/bin:\$PATH\", e.g. in ~/.profile) or run $HG_PREFIX/bin/hgrun" >&2 ;;
esac
