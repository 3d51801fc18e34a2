/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the checks of `hgrun doctor` share (run/doctor_check.h) and what a
 * scenario uses (run/doctor.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cpuset.h"
#include "base/fsutil.h"
#include "plan/keys.h"
#include "plan/timer.h"
#include "plan/workload.h"
#include "run/doctor_check.h"

static void put(char *buf, size_t size, const char *fmt, va_list ap)
{
	vsnprintf(buf, size, fmt, ap);
}

void hg_doctor_say(struct hg_doctor_check *c, enum hg_doctor_severity s, const char *value, ...)
{
	va_list ap;
	c->severity = s;
	if (!value)
		return;
	va_start(ap, value);
	put(c->value, sizeof(c->value), value, ap);
	va_end(ap);
}

void hg_doctor_why(struct hg_doctor_check *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	put(c->why, sizeof(c->why), fmt, ap);
	va_end(ap);
}

void hg_doctor_fix(struct hg_doctor_check *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	put(c->fix, sizeof(c->fix), fmt, ap);
	va_end(ap);
}

bool hg_doctor_line(const char *path, char *buf, size_t size)
{
	return hg_read_first_line(path, buf, size) > 0;
}

bool hg_doctor_number(const char *path, long long *v)
{
	char buf[64], *end;
	if (!hg_doctor_line(path, buf, sizeof(buf)))
		return false;
	errno = 0;
	*v = strtoll(buf, &end, 10);
	return !errno && end != buf;
}

int hg_doctor_first_cpu(const struct hg_doctor_use *u)
{
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &u->cpus))
			return cpu;
	return 0;
}

const char *hg_doctor_whose(const struct hg_doctor_use *u)
{
	return u->given ? "this scenario's" : "a scenario's";
}

const struct hg_thread_plan *hg_doctor_throttled(const struct hg_plan *plan, double share)
{
	for (size_t i = 0; i < plan->n_threads; i++) {
		const struct hg_thread_plan *tp = &plan->threads[i];
		const struct hg_workload_spec *w = &tp->workload;
		const struct hg_exec *e = hg_workload_exec(w);
		uint64_t period = hg_workload_period(w);
		if (tp->priority.policy != HG_POLICY_FIFO && tp->priority.policy != HG_POLICY_RR)
			continue;
		if (!w->ops->blocks || tp->timer->spins)
			return tp;
		if (w->ops->periodic && e && e->n_values && period &&
		    (double)e->values_ns[0] / (double)period > share)
			return tp;
	}
	return NULL;
}

static void use_thread(const struct hg_thread_plan *tp, struct hg_doctor_use *u)
{
	bool rt = tp->reservation.enabled || tp->priority.policy == HG_POLICY_FIFO ||
		  tp->priority.policy == HG_POLICY_RR;
	bool sleeps = tp->workload.ops->blocks && !tp->timer->spins;
	u->rt |= rt;
	u->latency |= tp->workload.ops->wakeups;
	u->sleeps |= sleeps;
	u->spins |= !sleeps;
	if (sleeps && !rt && hg_timer_slack(tp) > u->slack_ns) {
		u->slack_ns = hg_timer_slack(tp);
		u->slack_thread = tp->os_name;
	}
	if (tp->cpus_all)
		u->all_cpus = true;
	else
		CPU_OR(&u->cpus, &u->cpus, &tp->cpus);
}

void hg_doctor_use_of(const struct hg_plan *plan, struct hg_doctor_use *u)
{
	memset(u, 0, sizeof(*u));
	CPU_ZERO(&u->cpus);
	if (!plan) {
		hg_cpuset_online(&u->cpus);
		return;
	}
	u->given = true;
	u->name = plan->name;
	for (size_t i = 0; i < plan->n_threads; i++)
		use_thread(&plan->threads[i], u);
	if (u->all_cpus || !CPU_COUNT(&u->cpus))
		hg_cpuset_online(&u->cpus);
	long long runtime;
	if (hg_doctor_number("/proc/sys/kernel/sched_rt_runtime_us", &runtime) && runtime >= 0 &&
	    runtime < 1000000) {
		const struct hg_thread_plan *tp = hg_doctor_throttled(plan, (double)runtime / 1e6);
		u->throttled = tp ? tp->os_name : NULL;
	}
	u->lock_memory = plan->lock_memory;
	u->pmqos = plan->cpu_dma_latency_set;
	u->n_loads = plan->n_loads;
}
