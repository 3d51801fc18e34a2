# SPDX-License-Identifier: GPL-2.0-or-later
# One step of the kernel matrix's guest suite (scripts/kernel-matrix/init.sh, which sources
# this from /lib/hg_step.sh; POSIX sh: busybox ash in the guest, dash in the tests).
#
#   step NAME WANT COMMAND...
#
# runs COMMAND with its output in $OUT/NAME.log and appends "NAME RC WANT T0 T1" to
# $OUT/status (uptimes in seconds).  A step never hangs the boot: at $STEP_TIMEOUT seconds
# `timeout` sends SIGTERM, and SIGKILL $STEP_KILL_AFTER seconds later (default 10).  Ten
# seconds before the SIGTERM a watchdog writes what every process is doing to
# $OUT/NAME.hang (state, wait channel, scheduling policy and kernel stack of each thread)
# and its first lines to the console: a hung run then comes back as a failed step with
# the reason, not as a boot the host had to kill.  Needs log(), OUT, STEP_TIMEOUT.

# What every task is doing, as far as /proc tells (a kernel stack needs root and
# CONFIG_STACKTRACE; a missing one is skipped).
hg_step_snapshot() {
	for t in /proc/[0-9]*/task/[0-9]*; do
		[ -r "$t/stat" ] || continue
		comm= state= wchan= policy= prio=
		read -r comm < "$t/comm" 2>/dev/null
		read -r wchan < "$t/wchan" 2>/dev/null
		while read -r k v; do
			case $k in State:) state=$v; break ;; esac
		done < "$t/status" 2>/dev/null
		while read -r k _ v; do
			case $k in policy) policy=$v ;; prio) prio=$v; break ;; esac
		done < "$t/sched" 2>/dev/null
		echo "${t#/proc/} $comm state=${state:-?} wchan=${wchan:-?} policy=${policy:-?} prio=${prio:-?}"
		case $comm in
		kworker* | ksoftirqd* | migration* | cpuhp* | rcu* | idle_inject* | kthreadd) ;;
		*) [ -r "$t/stack" ] && sed 's/^/    /' "$t/stack" 2>/dev/null ;;
		esac
	done
}

# The step running now, by a token of its own (one file per shell: the tests
# run several suites at once on one host).
hg_step_current() { echo "${TMPDIR:-/tmp}/hg_step.$$"; }

# The watchdog: after SECONDS, if the step that started it (TOKEN in
# hg_step_current) is still running, the snapshot.
hg_step_watch() {
	sleep "$1" &
	sleeper=$!
	trap 'kill $sleeper 2>/dev/null; exit 0' TERM
	wait "$sleeper"
	trap - TERM
	[ "$(cat "$(hg_step_current)" 2>/dev/null)" = "$2" ] || return 0
	{
		echo "step $3 still running after $1 s (uptime $(cut -d' ' -f1 /proc/uptime) s):"
		hg_step_snapshot
	} > "$OUT/$3.hang" 2>&1
	log "$3: still running after $1 s; what each task is doing: $OUT/$3.hang"
	grep -v '^    ' "$OUT/$3.hang" | grep -v -e ' state=S ' -e ' state=I ' | head -n 20
}

step() {
	name=$1 want=$2
	shift 2
	t0=$(cut -d' ' -f1 /proc/uptime)
	token="$name $t0 $$"
	echo "$token" > "$(hg_step_current)"
	watch_at=$((STEP_TIMEOUT > 20 ? STEP_TIMEOUT - 10 : STEP_TIMEOUT / 2))
	hg_step_watch "$watch_at" "$token" "$name" &
	watcher=$!
	timeout -k "${STEP_KILL_AFTER:-10}" "$STEP_TIMEOUT" "$@" > "$OUT/$name.log" 2>&1
	rc=$?
	rm -f "$(hg_step_current)"
	kill "$watcher" 2>/dev/null
	wait "$watcher" 2>/dev/null
	t1=$(cut -d' ' -f1 /proc/uptime)
	echo "$name $rc $want $t0 $t1" >> "$OUT/status"
	log "$name: exit $rc (want $want) $(tail -n 1 "$OUT/$name.log")"
}
