#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Sets this checkout up on Debian (12 or 13; docs/install.md): installs the
# Debian packages hgrun needs with apt, makes the project's own Python
# environment (.venv/ here, never the system Python) with hgreport in it,
# builds hgrun into build/ and installs it (cmake --install into PREFIX:
# PREFIX/bin/hgrun, PREFIX/share/hgrun, PREFIX/share/doc/hgrun) with a link
# PREFIX/bin/hgreport to the environment's command.  PREFIX is $HG_PREFIX,
# else /usr/local as root and ~/.local otherwise.  Safe to run again: it
# installs only what is missing, and installs hgrun anew (a rebuild reaches
# PATH).
#
#   scripts/setup.sh          what scripts/quickstart.sh needs: build, run, report
#   scripts/setup.sh --test   also what the test suite needs (scripts/test.sh):
#                             clang for the fuzz target, the tests' Python packages
#
# Environment: HG_PREFIX (above), HG_VENV (the environment; default .venv in
# the checkout), HG_PYTHON (the interpreter it is made from; default Debian's
# /usr/bin/python3), HG_TEST_DEBS (more Debian packages, e.g. "slurm-wlm munge"
# for the Slurm test), HG_CMAKE_FLAGS.
set -euo pipefail
cd "$(dirname "$0")/.."
here=$PWD
tests=0
case "${1:-}" in
--test) tests=1 ;;
"") ;;
*) echo "usage: scripts/setup.sh [--test]" >&2; exit 3 ;;
esac

# --- Debian packages -------------------------------------------------------
debs=(
	build-essential cmake pkg-config libyaml-dev libcyaml-dev libjansson-dev # hgrun
	python3 python3-venv ca-certificates                                     # hgreport's environment
	stress-ng iputils-ping iproute2                                          # loads of shipped experiments
	man-db # `man hgrun`, `man hgreport` (docs/cli.md); minimal roots lack it
)
if ((tests)); then
	debs+=(clang libclang-rt-dev procps git) # the fuzz target (docs/fuzzing.md); ps; git ls-files
	read -r -a extra <<< "${HG_TEST_DEBS:-}"
	debs+=("${extra[@]}")
fi
missing=()
for p in "${debs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
	apt=(apt-get install -y --no-install-recommends "${missing[@]}")
	if [ "$(id -u)" -eq 0 ]; then
		sudo=()
	elif command -v sudo >/dev/null && { [ -t 0 ] || sudo -n true 2>/dev/null; }; then
		sudo=(sudo)
	else
		echo "setup: missing Debian packages: ${missing[*]}" >&2
		echo "setup: install them as root, then run this again:" >&2
		echo "  sudo apt-get update && sudo ${apt[*]}" >&2
		exit 1
	fi
	echo "setup: installing Debian packages: ${missing[*]}"
	"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
	"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive "${apt[@]}" -qq >/dev/null
fi

# --- the project's Python environment ---------------------------------------
# Debian's python3 (PEP 668: its own packages are apt's); the packages go into
# an environment this checkout owns, pinned to the versions tested on Debian 12
# and 13 (analysis/constraints.txt), hgreport in it in editable mode so it
# follows the checkout.
venv=${HG_VENV:-$here/.venv}
python=${HG_PYTHON:-/usr/bin/python3}
if ! "$venv/bin/python" -c 'import sys' 2>/dev/null; then
	echo "setup: making the Python environment $venv ($("$python" --version))"
	"$python" -m venv "$venv"
fi
want=(-e ./analysis)
((tests)) && want+=(-r tests/requirements.txt)
# pip runs only when what is asked changed: a stamp holds the hash of the
# files that say what to install, and whether the tests' packages are in.
stamp=$venv/.hgrun-setup
sum=$(cat analysis/pyproject.toml analysis/constraints.txt tests/requirements.txt | sha256sum | cut -c1-16)
have_sum='' have_mode=''
[ -f "$stamp" ] && read -r have_sum have_mode < "$stamp"
if [ "$have_sum" != "$sum" ] || { ((tests)) && [ "$have_mode" != tests ]; }; then
	echo "setup: installing Python packages into $venv (${want[*]})"
	"$venv/bin/python" -m pip install -q --disable-pip-version-check -c analysis/constraints.txt "${want[@]}"
	if ((tests)); then mode=tests; else mode=hgreport; fi
	echo "$sum $mode" > "$stamp"
fi

# --- hgrun ------------------------------------------------------------------
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release ${HG_CMAKE_FLAGS:-} >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
echo "setup: built build/hgrun ($(build/hgrun --version))"

if [ -z "${HG_PREFIX:-}" ]; then
	if [ "$(id -u)" -eq 0 ]; then HG_PREFIX=/usr/local; else HG_PREFIX=$HOME/.local; fi
fi
cmake --install build --prefix "$HG_PREFIX" >/dev/null
ln -sfn "$venv/bin/hgreport" "$HG_PREFIX/bin/hgreport"
echo "setup: installed $HG_PREFIX/bin/hgrun and $HG_PREFIX/bin/hgreport (-> $venv/bin/hgreport)"
case ":$PATH:" in
*":$HG_PREFIX/bin:"*)
	for cmd in hgrun hgreport; do
		found=$(command -v "$cmd" || true)
		if [ "$found" != "$HG_PREFIX/bin/$cmd" ]; then
			echo "setup: '$cmd' on PATH is $found, ahead of $HG_PREFIX/bin/$cmd: remove it or put $HG_PREFIX/bin first" >&2
		fi
	done ;;
*)
	echo "setup: $HG_PREFIX/bin is not on PATH: add it (export PATH=\"$HG_PREFIX/bin:\$PATH\", e.g. in ~/.profile) or run $HG_PREFIX/bin/hgrun" >&2 ;;
esac
