/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The checks of `hgrun doctor` about the kernel's settings (docs/doctor.md):
 * RT throttling, the preemption model, timer slack, transparent huge
 * pages, swap and the memory-lock limit. */
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "run/doctor_check.h"
#include "run/host.h"

void hg_doctor_rt_throttling(const struct hg_doctor_use *u, struct hg_doctor_check *c)
{
	long long runtime, period = 1000000;
	if (!hg_doctor_number("/proc/sys/kernel/sched_rt_runtime_us", &runtime)) {
		hg_doctor_say(c, HG_DOC_OK, "unknown (no /proc/sys/kernel/sched_rt_runtime_us)");
		return;
	}
	hg_doctor_number("/proc/sys/kernel/sched_rt_period_us", &period);
	if (runtime < 0) {
		hg_doctor_say(c, HG_DOC_OK, "sched_rt_runtime_us = -1: off");
		hg_doctor_why(c, "real-time threads may use every CPU cycle (a runaway one can "
			      "starve the machine: keep a shell at a higher priority)");
		return;
	}
	long long taken_ms = (period - runtime) / 1000;
	hg_doctor_say(c, HG_DOC_WARN, "sched_rt_runtime_us = %lld of sched_rt_period_us %lld: "
		      "%lld ms of every %lld ms taken from real-time threads", runtime, period,
		      taken_ms, period / 1000);
	hg_doctor_why(c, "a FIFO/RR thread that runs longer than the runtime in a period is "
		      "stopped for the rest of it (since Linux 6.12 by the fair server: the CPU "
		      "goes to SCHED_OTHER tasks): a gap of up to %lld ms in its trace, a deadline "
		      "missed for nothing it did", taken_ms);
	if (u->given && u->throttled) {
		hg_doctor_say(c, HG_DOC_BAD, NULL);
		hg_doctor_why(c, "this scenario's thread %s is FIFO/RR and can run longer than %lld "
			      "ms of each %lld ms (it never sleeps, spins, or its load is above the "
			      "share): expect a gap of up to %lld ms in each period", u->throttled,
			      runtime / 1000, period / 1000, taken_ms);
	} else if (u->given && !u->rt) {
		hg_doctor_say(c, HG_DOC_OK, NULL);
		hg_doctor_why(c, "this scenario has no FIFO/RR thread: throttling does not touch it");
	} else if (u->given) {
		hg_doctor_say(c, HG_DOC_INFO, NULL);
		hg_doctor_why(c, "this scenario's FIFO/RR threads sleep enough to stay under the "
			      "share; a load or another real-time task that does not would be "
			      "throttled");
	}
	hg_doctor_fix(c, "sysctl -w kernel.sched_rt_runtime_us=-1 (or echo -1 > "
		      "/proc/sys/kernel/sched_rt_runtime_us; kernel.sched_rt_runtime_us = -1 in "
		      "/etc/sysctl.d/ to keep it)");
}

void hg_doctor_preemption(const struct hg_doctor_use *u, struct hg_doctor_check *c)
{
	struct hg_preempt_model m;
	hg_host_preempt(&m);
	bool rt = !strcmp(m.model, "rt");
	bool full = !strcmp(m.model, "full") || !strcmp(m.model, "lazy");
	hg_doctor_say(c, rt ? HG_DOC_OK : full ? HG_DOC_INFO : HG_DOC_WARN, "%s (from %s)%s%s",
		      m.model, m.source, m.is_dynamic ? "; PREEMPT_DYNAMIC, mode " : "",
		      m.is_dynamic ? (m.dynamic[0] ? m.dynamic : "unknown") : "");
	hg_doctor_why(c, "the preemption model bounds how long the kernel makes a woken "
		      "higher-priority thread wait: none and voluntary let kernel code run to its "
		      "next preemption point (milliseconds), full preempts anywhere but where "
		      "interrupts or preemption are off, PREEMPT_RT also threads the interrupt "
		      "handlers and makes most spinlocks sleep (tens of microseconds)");
	if (!rt && u->given && (u->latency || u->rt)) {
		hg_doctor_why(c, "this scenario measures %s: under preempt %s its tail is bounded "
			      "by the kernel's longest non-preemptible section, often milliseconds; "
			      "compare with an rt kernel before reading it as the application's",
			      u->latency ? "wake-up latency" : "real-time threads", m.model);
		if (!full)
			hg_doctor_say(c, HG_DOC_WARN, NULL);
	}
	if (!rt)
		hg_doctor_fix(c, "%s; for the least latency a PREEMPT_RT kernel (Debian: apt-get "
			      "install linux-image-rt-amd64)", m.is_dynamic ?
			      "preempt=full on the kernel command line (this kernel is "
			      "PREEMPT_DYNAMIC)" : "a kernel built with CONFIG_PREEMPT");
}

void hg_doctor_timer_slack(const struct hg_doctor_use *u, struct hg_doctor_check *c)
{
	long long slack = -1;
	hg_doctor_number("/proc/self/timerslack_ns", &slack);
	hg_doctor_say(c, HG_DOC_OK, "%lld ns for a SCHED_OTHER process here (hgrun sets 1 ns "
		      "for its threads unless timer.slack says otherwise)", slack);
	hg_doctor_why(c, "the kernel may fire a SCHED_OTHER thread's timer up to its slack late "
		      "to batch wake-ups (50 us by default); real-time threads get none. A tool "
		      "whose measuring thread is SCHED_OTHER (cyclictest without -p) sees it in "
		      "every sample");
	if (u->given && u->slack_thread) {
		hg_doctor_say(c, HG_DOC_INFO, NULL);
		hg_doctor_why(c, "this scenario gives %s (SCHED_OTHER) a timer.slack of %llu ns: "
			      "its wake-ups may be that much late by design", u->slack_thread,
			      (unsigned long long)u->slack_ns);
		hg_doctor_fix(c, "drop timer.slack from the thread (1 ns), or give it a FIFO "
			      "priority");
	}
}

void hg_doctor_thp(const struct hg_doctor_use *u, struct hg_doctor_check *c)
{
	char line[128] = "", mode[16] = "?";
	hg_doctor_line("/sys/kernel/mm/transparent_hugepage/enabled", line, sizeof(line));
	const char *open = strchr(line, '['), *close = open ? strchr(open, ']') : NULL;
	if (open && close && close - open < (long)sizeof(mode))
		snprintf(mode, sizeof(mode), "%.*s", (int)(close - open - 1), open + 1);
	hg_doctor_say(c, !strcmp(mode, "always") && u->given && u->rt ? HG_DOC_WARN :
		      !strcmp(mode, "always") ? HG_DOC_INFO : HG_DOC_OK,
		      "transparent_hugepage: %s", mode);
	hg_doctor_why(c, "with THP always, page faults may compact memory for a huge page and "
		      "khugepaged collapses pages in the background: stalls of milliseconds that "
		      "land on whatever faults (hgrun pre-touches and locks its buffers; loads and "
		      "other processes fault)");
	if (!strcmp(mode, "always"))
		hg_doctor_fix(c, "echo madvise > /sys/kernel/mm/transparent_hugepage/enabled (or "
			      "transparent_hugepage=madvise on the command line)");
}

void hg_doctor_swap(const struct hg_doctor_use *u, struct hg_doctor_check *c)
{
	char line[256];
	long long swappiness = -1;
	int devices = 0;
	FILE *f = fopen("/proc/swaps", "re");
	if (f) {
		while (fgets(line, sizeof(line), f))
			devices++;
		fclose(f);
		devices = devices > 0 ? devices - 1 : 0;        /* the header line */
	}
	hg_doctor_number("/proc/sys/vm/swappiness", &swappiness);
	hg_doctor_say(c, devices && u->given && !u->lock_memory ? HG_DOC_WARN :
		      devices ? HG_DOC_INFO : HG_DOC_OK, "%d swap device%s, vm.swappiness %lld",
		      devices, devices == 1 ? "" : "s", swappiness);
	hg_doctor_why(c, "a page swapped out and touched again stalls its thread for a disk's "
		      "latency; hgrun locks its memory (lock_memory, on by default), loads and other "
		      "processes are not locked");
	if (devices)
		hg_doctor_fix(c, "swapoff -a for the measurement, or keep lock_memory: true and "
			      "leave the machine's memory free");
}

void hg_doctor_mlock(const struct hg_doctor_use *u, struct hg_doctor_check *c)
{
	struct rlimit r;
	char limit[32];
	bool root = geteuid() == 0;
	if (getrlimit(RLIMIT_MEMLOCK, &r) != 0) {
		hg_doctor_say(c, HG_DOC_INFO, "RLIMIT_MEMLOCK unknown");
		return;
	}
	if (r.rlim_cur == RLIM_INFINITY)
		snprintf(limit, sizeof(limit), "unlimited");
	else
		snprintf(limit, sizeof(limit), "%llu KiB", (unsigned long long)r.rlim_cur / 1024);
	bool short_limit = !root && r.rlim_cur != RLIM_INFINITY;
	hg_doctor_say(c, short_limit && (!u->given || u->lock_memory) ? HG_DOC_WARN : HG_DOC_OK,
		      "RLIMIT_MEMLOCK %s, %s", limit, root ? "root (not bounded by it)" :
		      "not root");
	hg_doctor_why(c, "hgrun locks its memory at the start gate (mlockall, lock_memory: true) "
		      "so no page fault lands in a measurement; without root or CAP_IPC_LOCK the "
		      "lock is bounded by RLIMIT_MEMLOCK and a larger footprint is refused (a "
		      "warning; exit 4 with --strict)");
	if (c->severity != HG_DOC_OK)
		hg_doctor_fix(c, "run as root, give hgrun CAP_IPC_LOCK (setcap cap_ipc_lock,"
			      "cap_sys_nice+ep PREFIX/bin/hgrun), or raise memlock in "
			      "/etc/security/limits.conf (ulimit -l unlimited)");
}
