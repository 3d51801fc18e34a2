#!/usr/bin/env bash
# Installs what hgrun needs (Debian packages, Python packages) when missing,
# then builds it into build/.  Safe to run again: it only does what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

debs=(build-essential cmake pkg-config libyaml-dev libcyaml-dev libjansson-dev clang libclang-rt-dev)
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

cmake -S . -B build -DCMAKE_BUILD_TYPE=Release ${HG_CMAKE_FLAGS:-} >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
echo "setup: built build/hgrun ($(build/hgrun --version))"
