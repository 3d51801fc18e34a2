#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Submits a sweep to Slurm: a job array of N shards (scripts/slurm/sweep.sbatch,
# one whole node per task) and the merge job that runs after it whatever
# happened (scripts/slurm/merge.sbatch).  docs/slurm.md.
#
#   scripts/slurm/submit.sh N SCENARIO DIR [hgrun sweep options]
#   e.g. scripts/slurm/submit.sh 4 experiments/06_sweep.yaml /shared/hg/sweep06 --duration 2s
#
# Extra sbatch options (partition, account, time) go in $SBATCH_OPTS; Slurm's
# own SBATCH_* input variables work too.  Prints the two job ids.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [ $# -lt 3 ] || ! [[ $1 =~ ^[1-9][0-9]*$ ]]; then
	echo "usage: scripts/slurm/submit.sh N SCENARIO DIR [hgrun sweep options]" >&2
	exit 3
fi
n=$1
shift
# shellcheck disable=SC2086  # SBATCH_OPTS is a list of options
array=$(sbatch --parsable ${SBATCH_OPTS:-} --array="0-$((n - 1))" "$here/sweep.sbatch" "$@")
array=${array%%;*}
# shellcheck disable=SC2086
merge=$(sbatch --parsable ${SBATCH_OPTS:-} --dependency="afterany:$array" "$here/merge.sbatch" "$@")
merge=${merge%%;*}
echo "submitted: array job $array (shards 0-$((n - 1)) of $n), merge job $merge (after it)"
echo "watch: squeue -j $array,$merge; then: hgreport sweep $2"
