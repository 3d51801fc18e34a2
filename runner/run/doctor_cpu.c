/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The checks of `hgrun doctor` about the CPUs and the machine
 * (docs/doctor.md): frequency governor and boost, idle states and PM QoS,
 * SMT, isolation, interrupts, the clocksource and the TSC, virtualisation. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "base/cpuset.h"
#include "run/doctor_check.h"
#include "run/host.h"

#define CPU_DIR "/sys/devices/system/cpu"
#define CLOCKSOURCE "/sys/devices/system/clocksource/clocksource0/"

void hg_doctor_governor(const struct hg_doctor_use *u, struct hg_doctor_check *c)
{
	char path[128], gov[64], first[64] = "", differ[256] = "";
	int n = 0;
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &u->cpus))
			continue;
		snprintf(path, sizeof(path), CPU_DIR "/cpu%d/cpufreq/scaling_governor", cpu);
		if (!hg_doctor_line(path, gov, sizeof(gov)))
			continue;
		if (!n++)
			snprintf(first, sizeof(first), "%s", gov);
		else if (strcmp(gov, first) && strlen(differ) < 200)
			snprintf(differ + strlen(differ), sizeof(differ) - strlen(differ),
				 ", cpu%d %s", cpu, gov);
	}
	hg_doctor_why(c, "a governor other than performance changes the CPU's frequency with its "
		      "load: the same work takes longer at the start of a burst, and a thread that "
		      "sleeps wakes on a slowed CPU (longer wake-up paths, longer exec times)");
	if (!n) {
		hg_doctor_say(c, HG_DOC_OK, "no cpufreq here (no driver: a VM, or frequency "
			      "fixed by the firmware)");
		hg_doctor_why(c, "without cpufreq the kernel does not change the frequency; the "
			      "host or the firmware may (a VM's vCPUs run at its host's)");
		return;
	}
	hg_doctor_say(c, strcmp(first, "performance") ? HG_DOC_WARN : HG_DOC_OK, "%s on %d CPU%s%s",
		      first, n, n == 1 ? "" : "s", differ);
	if (c->severity != HG_DOC_OK)
		hg_doctor_fix(c, "cpupower frequency-set -g performance (or echo performance | tee "
			      CPU_DIR "/cpu*/cpufreq/scaling_governor)");
}

void hg_doctor_boost(const struct hg_doctor_use *u, struct hg_doctor_check *c)
{
	long long v;
	(void)u;
	hg_doctor_why(c, "turbo/boost raises the frequency while power and heat allow, then "
		      "lowers it: runs of the same scenario differ by how warm the package was");
	if (hg_doctor_number(CPU_DIR "/cpufreq/boost", &v)) {
		hg_doctor_say(c, v ? HG_DOC_INFO : HG_DOC_OK, "cpufreq/boost = %lld", v);
		if (v)
			hg_doctor_fix(c, "echo 0 > " CPU_DIR "/cpufreq/boost");
	} else if (hg_doctor_number(CPU_DIR "/intel_pstate/no_turbo", &v)) {
		hg_doctor_say(c, v ? HG_DOC_OK : HG_DOC_INFO, "intel_pstate/no_turbo = %lld", v);
		if (!v)
			hg_doctor_fix(c, "echo 1 > " CPU_DIR "/intel_pstate/no_turbo");
	} else {
		hg_doctor_say(c, HG_DOC_OK, "no boost control here (no cpufreq boost, no "
			      "intel_pstate)");
	}
}

void hg_doctor_cpuidle(const struct hg_doctor_use *u, struct hg_doctor_check *c)
{
	char driver[64] = "none", path[128], name[32], states[192] = "";
	long long lat, deepest = 0;
	int cpu = hg_doctor_first_cpu(u);
	hg_doctor_line(CPU_DIR "/cpuidle/current_driver", driver, sizeof(driver));
	for (int s = 0; s < 16; s++) {
		snprintf(path, sizeof(path), CPU_DIR "/cpu%d/cpuidle/state%d/latency", cpu, s);
		if (!hg_doctor_number(path, &lat))
			break;
		snprintf(path, sizeof(path), CPU_DIR "/cpu%d/cpuidle/state%d/name", cpu, s);
		if (!hg_doctor_line(path, name, sizeof(name)))
			snprintf(name, sizeof(name), "state%d", s);
		snprintf(states + strlen(states), sizeof(states) - strlen(states), "%s%s %lldus",
			 s ? ", " : "", name, lat);
		if (lat > deepest)
			deepest = lat;
	}
	hg_doctor_say(c, HG_DOC_OK, "driver %s; cpu%d's states: %s", driver, cpu,
		      states[0] ? states : "none");
	hg_doctor_why(c, "a CPU that sleeps in a deep idle state takes its exit latency to wake: "
		      "added to every wake-up that finds it idle; /dev/cpu_dma_latency (PM QoS) "
		      "keeps CPUs out of states slower than its value while it is held");
	if (deepest > 10 && (u->latency || !u->given) && !u->pmqos) {
		hg_doctor_say(c, u->given ? HG_DOC_WARN : HG_DOC_INFO, NULL);
		hg_doctor_why(c, "the deepest idle state takes %lld us to leave, added to a wake-up "
			      "that finds the CPU in it; %s latency threads are measured with it "
			      "allowed (cyclictest holds /dev/cpu_dma_latency at 0 by default)",
			      deepest, hg_doctor_whose(u));
		hg_doctor_fix(c, "cpu_dma_latency: 0us in the scenario (held for the run), or "
			      "processor.max_cstate=1 intel_idle.max_cstate=0 on the kernel command line");
	}
}

void hg_doctor_smt(const struct hg_doctor_use *u, struct hg_doctor_check *c)
{
	long long active;
	char control[32] = "?";
	hg_doctor_line(CPU_DIR "/smt/control", control, sizeof(control));
	if (!hg_doctor_number(CPU_DIR "/smt/active", &active)) {
		hg_doctor_say(c, HG_DOC_OK, "unknown (no " CPU_DIR "/smt)");
		return;
	}
	hg_doctor_say(c, active ? HG_DOC_INFO : HG_DOC_OK, "smt/active = %lld, control %s",
		      active, control);
	hg_doctor_why(c, "with SMT two hardware threads share one core's pipelines and caches: "
		      "what runs on a sibling slows the measured thread%s",
		      active ? "" : " (off here)");
	if (active) {
		if (u->given && u->rt)
			hg_doctor_say(c, HG_DOC_WARN, NULL);
		hg_doctor_fix(c, "echo off > " CPU_DIR "/smt/control (or nosmt on the kernel "
			      "command line), or keep the siblings of the measured CPUs idle "
			      "(" CPU_DIR "/cpuN/topology/thread_siblings_list)");
	}
}

void hg_doctor_isolation(const struct hg_doctor_use *u, struct hg_doctor_check *c)
{
	char isolated[128] = "", nohz[128] = "", mine[128], cmd[4096] = "";
	cpu_set_t iso, both;
	char err[HG_ERRLEN];
	hg_doctor_line(CPU_DIR "/isolated", isolated, sizeof(isolated));
	hg_doctor_line(CPU_DIR "/nohz_full", nohz, sizeof(nohz));
	hg_doctor_line("/proc/cmdline", cmd, sizeof(cmd));
	bool rcu = strstr(cmd, "rcu_nocbs=") != NULL;
	hg_cpuset_format(&u->cpus, mine, sizeof(mine));
	hg_doctor_say(c, HG_DOC_INFO, "isolated: %s; nohz_full: %s; rcu_nocbs: %s",
		      isolated[0] ? isolated : "none", nohz[0] && strcmp(nohz, "(null)") ? nohz :
		      "none", rcu ? "set" : "none");
	hg_doctor_why(c, "CPUs not isolated run everything else too (other processes, kernel "
		      "threads, timers, RCU callbacks): isolcpus/nohz_full/rcu_nocbs keep them off "
		      "the CPUs that measure");
	CPU_ZERO(&iso);
	if (isolated[0] && hg_cpuset_parse(isolated, &iso, err) == 0) {
		CPU_AND(&both, &iso, &u->cpus);
		if (u->given && CPU_EQUAL(&both, &u->cpus)) {
			hg_doctor_say(c, HG_DOC_OK, NULL);
			hg_doctor_why(c, "the scenario's CPUs (%s) are isolated", mine);
			return;
		}
	}
	if (u->given)
		hg_doctor_why(c, "the scenario's threads run on CPUs %s, which also run everything "
			      "else on this machine: other processes, kernel threads, timers and RCU "
			      "callbacks take their time there (the run's competition figures say "
			      "how much)", mine);
	hg_doctor_fix(c, "isolcpus=managed_irq,domain,N-M nohz_full=N-M rcu_nocbs=N-M on the "
		      "kernel command line (then reboot), with the threads' cpus: in that set");
}

void hg_doctor_irqs(const struct hg_doctor_use *u, struct hg_doctor_check *c)
{
	char mask[128] = "?", comm[64], path[300];
	bool balancing = false;
	hg_doctor_line("/proc/irq/default_smp_affinity", mask, sizeof(mask));
	DIR *d = opendir("/proc");
	struct dirent *e;
	while (d && !balancing && (e = readdir(d)) != NULL) {
		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", e->d_name);
		balancing = hg_doctor_line(path, comm, sizeof(comm)) && !strcmp(comm, "irqbalance");
	}
	if (d)
		closedir(d);
	hg_doctor_say(c, balancing && u->given ? HG_DOC_WARN : HG_DOC_INFO,
		      "default_smp_affinity %s; irqbalance %s", mask,
		      balancing ? "running" : "not running");
	hg_doctor_why(c, "device interrupts handled on a measured CPU take its time (a gap, a late "
		      "wake-up); irqbalance moves them every 10 s, so where they land changes "
		      "during a run");
	hg_doctor_fix(c, "stop irqbalance (systemctl stop irqbalance) and write the other CPUs' "
		      "mask to /proc/irq/*/smp_affinity and /proc/irq/default_smp_affinity, or "
		      "irqaffinity=N-M on the kernel command line");
}

void hg_doctor_clocksource(const struct hg_doctor_use *u, struct hg_doctor_check *c)
{
	char cur[32] = "?", avail[128] = "";
	(void)u;
	hg_doctor_line(CLOCKSOURCE "current_clocksource", cur, sizeof(cur));
	hg_doctor_line(CLOCKSOURCE "available_clocksource", avail,
		       sizeof(avail));
	bool fast = !strcmp(cur, "tsc") || !strcmp(cur, "arch_sys_counter");
	hg_doctor_say(c, fast ? HG_DOC_OK : HG_DOC_WARN, "%s (available: %s)", cur,
		      avail[0] ? avail : "?");
	hg_doctor_why(c, "clock_gettime and timer expiry read the clocksource: tsc (and arm64's "
		      "arch_sys_counter) is read in nanoseconds without a system call; hpet or "
		      "acpi_pm cost a microsecond or more a read and every tool measures its own "
		      "overhead (hgrun's loop reads the counter itself, its sleeps do not)");
	if (!fast)
		hg_doctor_fix(c, "echo tsc > " CLOCKSOURCE
			      "current_clocksource (or clocksource=tsc tsc=reliable on the command "
			      "line) when the TSC is invariant (the tsc check)");
}

void hg_doctor_tsc(const struct hg_doctor_use *u, struct hg_doctor_check *c)
{
	int constant = hg_host_cpu_flag("constant_tsc"), nonstop = hg_host_cpu_flag("nonstop_tsc");
	(void)u;
	if (constant < 0) {
		hg_doctor_say(c, HG_DOC_OK, "no TSC flags in /proc/cpuinfo (not x86: hgrun uses "
			      "the architecture's counter)");
		return;
	}
	hg_doctor_say(c, constant && nonstop ? HG_DOC_OK : HG_DOC_BAD,
		      "constant_tsc %s, nonstop_tsc %s", constant ? "yes" : "no",
		      nonstop ? "yes" : "no");
	hg_doctor_why(c, "hgrun times every interval with the TSC: an invariant one (constant "
		      "and nonstop) ticks at one rate whatever the frequency and idle state; "
		      "without it intervals measured across a frequency change or a deep idle state "
		      "are wrong (the run warns)");
	if (c->severity != HG_DOC_OK)
		hg_doctor_fix(c, "measure on a machine whose TSC is invariant (or whose counter "
			      "the kernel trusts: dmesg | grep -i tsc)");
}

/* The hypervisor's CPUID signature ("KVMKVMKVM", "Microsoft Hv", "VMwareVMware"). */
static void hypervisor_name(char *out, size_t size)
{
	out[0] = '\0';
#if defined(__x86_64__) || defined(__i386__)
	unsigned a, b, c, d;
	__cpuid(0x40000000, a, b, c, d);
	char sig[13];
	memcpy(sig, &b, 4);
	memcpy(sig + 4, &c, 4);
	memcpy(sig + 8, &d, 4);
	sig[12] = '\0';
	for (char *p = sig; *p; p++)
		if (*p < ' ' || *p > '~')
			*p = ' ';
	snprintf(out, size, "%s", sig);
#else
	(void)size;
#endif
}

void hg_doctor_virtual(const struct hg_doctor_use *u, struct hg_doctor_check *c)
{
	char sig[16], xen[32] = "";
	int flag = hg_host_cpu_flag("hypervisor");
	hg_doctor_line("/sys/hypervisor/type", xen, sizeof(xen));
	if (flag <= 0 && !xen[0]) {
		hg_doctor_say(c, HG_DOC_OK, "no hypervisor seen (no hypervisor CPU flag, no "
			      "/sys/hypervisor)");
		return;
	}
	hypervisor_name(sig, sizeof(sig));
	hg_doctor_say(c, u->given && (u->rt || u->latency) ? HG_DOC_WARN : HG_DOC_INFO,
		      "a virtual machine (%s%s%s)", xen[0] ? xen : "hypervisor CPU flag",
		      sig[0] ? ", CPUID " : "", sig);
	hg_doctor_why(c, "a vCPU is a thread of the host: the host preempts it (steal time), "
		      "its timer interrupts are injected by the host, and priorities here cannot "
		      "outrank the host's work; a VM's latencies are the host's and the guest's "
		      "together, often milliseconds where bare metal has microseconds");
	hg_doctor_fix(c, "measure on bare metal for numbers about a machine; in a VM, pin its "
		      "vCPUs to isolated host CPUs and give them a real-time policy on the host, "
		      "and read the run's steal time (competition in result.json)");
}
