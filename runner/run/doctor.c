/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The checks of `hgrun doctor`, in the order they are printed
 * (docs/doctor.md lists each with its id). */
#include <string.h>

#include "run/doctor.h"

static const struct {
	const char *id, *title;
	hg_doctor_fn *fn;
} checks[] = {
	{ "rt_throttling", "RT throttling", hg_doctor_rt_throttling },
	{ "preemption", "preemption model", hg_doctor_preemption },
	{ "virtualization", "running in a VM", hg_doctor_virtual },
	{ "governor", "CPU frequency governor", hg_doctor_governor },
	{ "boost", "CPU boost (turbo)", hg_doctor_boost },
	{ "cpuidle", "idle states and PM QoS", hg_doctor_cpuidle },
	{ "smt", "SMT (hyper-threading)", hg_doctor_smt },
	{ "isolation", "CPU isolation (isolcpus, nohz_full, rcu_nocbs)", hg_doctor_isolation },
	{ "irq_affinity", "interrupt affinity and irqbalance", hg_doctor_irqs },
	{ "timer_slack", "timer slack", hg_doctor_timer_slack },
	{ "thp", "transparent huge pages", hg_doctor_thp },
	{ "swap", "swap", hg_doctor_swap },
	{ "mlock", "memory lock limit", hg_doctor_mlock },
	{ "clocksource", "clocksource", hg_doctor_clocksource },
	{ "tsc", "invariant TSC", hg_doctor_tsc },
};
#define N_CHECKS (sizeof(checks) / sizeof(checks[0]))

size_t hg_doctor_run(const struct hg_doctor_use *u, struct hg_doctor_check *out, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < N_CHECKS && n < max; i++, n++) {
		memset(&out[n], 0, sizeof(out[n]));
		out[n].id = checks[i].id;
		out[n].title = checks[i].title;
		checks[i].fn(u, &out[n]);
	}
	return n;
}

const char *hg_doctor_severity_name(enum hg_doctor_severity s)
{
	static const char *const names[] = { "ok", "info", "warn", "bad" };
	return (unsigned)s < 4 ? names[s] : "?";
}
