/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The loads' part of result.json, built after hg_loadrun_stop_all from the
 * supervisor's records, the wait statuses and rusage of the reaped
 * processes, and their shared statistics slots. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "base/jsonfmt.h"
#include "base/timeutil.h"
#include "loads/supervisor_internal.h"
#include "loads/supervisor_json.h"

static json_t *since(int64_t abs, int64_t t0)
{
	return abs ? json_integer(abs - t0) : json_null();
}

static json_t *signal_name(int sig)
{
	const char *abbrev = sigabbrev_np(sig);
	char buf[32];
	if (!abbrev)
		return json_integer(sig);
	snprintf(buf, sizeof(buf), "SIG%s", abbrev);
	return json_string(buf);
}

/* {code, signal}: how a wait status ended; null when unknown. */
static json_t *status_json(bool known, int st)
{
	if (!known || st < 0)
		return json_null();
	return json_pack("{s:o, s:o}",
			 "code", WIFEXITED(st) ? json_integer(WEXITSTATUS(st)) : json_null(),
			 "signal", WIFSIGNALED(st) ? signal_name(WTERMSIG(st)) : json_null());
}

static json_t *proc_json(const struct hg_lproc *pr, int64_t t0)
{
	return json_pack("{s:i, s:o, s:o, s:o, s:o, s:b, s:I}", "pid", (int)pr->pid,
			 "started_ns", since(pr->started, t0),
			 "working_ns", since(pr->slot ? pr->slot->working_from : 0, t0),
			 "ended_ns", since(pr->ended, t0),
			 "exit", status_json(pr->reaped, pr->status), "killed", pr->killed,
			 "cpu_ns", (json_int_t)(hg_tv_to_ns(pr->ru.ru_utime) + hg_tv_to_ns(pr->ru.ru_stime)));
}

/* Active time: start to SIGTERM (or to the end, for loads that ended early). */
static double seconds(const struct hg_lsup *s)
{
	int64_t end = s->term_at ? s->term_at : s->stopped;
	return s->started && end > s->started ? (double)(end - s->started) / 1e9 : 0.0;
}

static void add_rusage(json_t *st, const struct hg_lsup *s)
{
	json_int_t cpu = 0, minflt = 0, majflt = 0, nvcsw = 0, nivcsw = 0;
	for (unsigned i = 0; i < s->run.n_procs; i++) {
		const struct rusage *ru = &s->procs[i].ru;
		cpu += hg_tv_to_ns(ru->ru_utime) + hg_tv_to_ns(ru->ru_stime);
		minflt += ru->ru_minflt;
		majflt += ru->ru_majflt;
		nvcsw += ru->ru_nvcsw;
		nivcsw += ru->ru_nivcsw;
	}
	json_object_set_new(st, "cpu_ns", json_integer(cpu));
	json_object_set_new(st, "minor_faults", json_integer(minflt));
	json_object_set_new(st, "major_faults", json_integer(majflt));
	json_object_set_new(st, "voluntary_switches", json_integer(nvcsw));
	json_object_set_new(st, "involuntary_switches", json_integer(nivcsw));
}

static json_t *stats_json(const struct hg_lsup *s)
{
	uint64_t sum[HG_LOAD_NCOUNTERS] = { 0 };
	for (unsigned i = 0; i < s->run.n_procs; i++)
		for (unsigned c = 0; c < HG_LOAD_NCOUNTERS; c++)
			sum[c] += atomic_load_explicit(&s->procs[i].slot->counters[c],
						       memory_order_relaxed);
	double secs = seconds(s);
	json_t *st = json_object();
	json_object_set_new(st, "seconds", json_real(secs));
	json_object_set_new(st, "ops", json_integer((json_int_t)sum[0]));
	json_object_set_new(st, "ops_per_s", json_real(secs > 0 ? (double)sum[0] / secs : 0));
	for (unsigned c = 0; c < HG_LOAD_NCOUNTERS; c++) {
		const char *name = s->ops->counters[c];
		if (!name)
			continue;
		json_object_set_new(st, name, json_integer((json_int_t)sum[c]));
		if (strcmp(name, "bytes") == 0)
			json_object_set_new(st, "mbps",
					    json_real(secs > 0 ? (double)sum[c] * 8 / 1e6 / secs : 0));
	}
	add_rusage(st, s);
	return st;
}

static json_t *granted_json(const struct hg_lsup *s, const struct hg_loadrun *lr)
{
	const struct hg_load_plan *p = s->run.plan;
	const struct hg_load_slot *slot = s->procs[0].slot;
	json_t *g = json_object();
	if (p->priority_given && !slot->sched_error) {
		json_object_set_new(g, "policy", json_string(hg_policy_name(p->priority.policy)));
		json_object_set_new(g, "priority", json_integer(p->priority.rt_priority));
	}
	if (p->priority_given && !slot->nice_error)
		json_object_set_new(g, "nice", json_integer(p->priority.nice));
	json_t *cpus = json_array();
	const cpu_set_t *set = p->cpus_all ? &lr->all_cpus : &p->cpus;
	for (int c = 0; c < CPU_SETSIZE && !slot->affinity_error; c++)
		if (CPU_ISSET(c, set))
			json_array_append_new(cpus, json_integer(c));
	json_object_set_new(g, "cpus", cpus);
	return g;
}

static const char *privilege_hint(int e)
{
	return e == EPERM ? " (needs root or CAP_SYS_NICE)" : "";
}

/* A SIGKILL hgrun did not send (its own are counted in pr->killed); it
 * may be seen only at the stop, when the process is reaped. */
static bool outside_kill(const struct hg_lproc *pr)
{
	return pr->reaped && pr->status >= 0 && WIFSIGNALED(pr->status) &&
	       WTERMSIG(pr->status) == SIGKILL && !pr->killed;
}

/* Warnings the processes left in their slots, and early ends. */
static void proc_warnings(json_t *w, const struct hg_lsup *s, int64_t t0)
{
	const struct hg_load_slot *s0 = s->procs[0].slot;
	if (s0->sched_error)
		hg_json_appendf(w, "scheduling policy %s not granted: sched_setscheduler: %s%s",
				hg_policy_name(s->run.plan->priority.policy),
				strerror(s0->sched_error), privilege_hint(s0->sched_error));
	if (s0->nice_error)
		hg_json_appendf(w, "nice %d not granted: setpriority: %s%s", s->run.plan->priority.nice,
				strerror(s0->nice_error), privilege_hint(s0->nice_error));
	if (s0->affinity_error)
		hg_json_appendf(w, "cpus not granted: sched_setaffinity: %s",
				strerror(s0->affinity_error));
	for (unsigned i = 0; i < s->run.n_procs; i++) {
		const struct hg_lproc *pr = &s->procs[i];
		if (pr->slot->error[0])
			hg_json_appendf(w, "process %u: %s", i, pr->slot->error);
		bool early = pr->reaped && pr->status >= 0 && (!s->term_at || pr->ended < s->term_at);
		if (early && WIFEXITED(pr->status))
			hg_json_appendf(w, "process %u (pid %d) exited with status %d before the load's stop time",
					i, (int)pr->pid, WEXITSTATUS(pr->status));
		else if (early && WIFSIGNALED(pr->status))
			hg_json_appendf(w, "process %u (pid %d) was killed by signal %d (%s) before the load's stop time",
					i, (int)pr->pid, WTERMSIG(pr->status), strsignal(WTERMSIG(pr->status)));
		else if (outside_kill(pr))
			hg_json_appendf(w, "process %u (pid %d) was killed by SIGKILL that hgrun did not "
					"send (from outside, or the OOM killer)", i, (int)pr->pid);
		/* exec: the keeper lives on, the command inside it did not. */
		int st = pr->slot->status;
		if (pr->slot->status_valid == 2 && WIFEXITED(st))
			hg_json_appendf(w, "the command exited with status %d%s before the load's stop "
					"time (its stderr: load-%s.err)", WEXITSTATUS(st),
					WEXITSTATUS(st) == 127 ? " (command not found)" :
					WEXITSTATUS(st) == 126 ? " (not executable)" : "",
					s->run.plan->name);
		else if (pr->slot->status_valid == 2 && WIFSIGNALED(st))
			hg_json_appendf(w, "the command was killed by signal %d (%s) before the load's "
					"stop time", WTERMSIG(st), strsignal(WTERMSIG(st)));
	}
	if (s->stragglers)
		hg_json_appendf(w, "%u process groups still had members after their leader ended; killed",
				s->stragglers);
	if (s->ops->report)
		s->ops->report(&s->run, s->procs[0].slot, t0, NULL, w);
}

static json_t *load_json(const struct hg_lsup *s, const struct hg_loadrun *lr)
{
	const struct hg_load_plan *p = s->run.plan;
	json_t *pids = json_array(), *procs = json_array(), *exit_info = json_null();
	json_t *w = json_deep_copy(s->warnings);
	unsigned killed = 0;
	for (unsigned i = 0; i < s->run.n_procs; i++) {
		const struct hg_lproc *pr = &s->procs[i];
		if (pr->pid <= 0)
			continue;
		json_array_append_new(pids, json_integer(pr->pid));
		json_array_append_new(procs, proc_json(pr, lr->t0));
		killed += pr->killed;
		if (pr->slot->status_valid && json_is_null(exit_info)) {
			json_decref(exit_info);
			exit_info = status_json(true, pr->slot->status);
		}
	}
	bool ran = s->started != 0;
	if (ran)
		proc_warnings(w, s, lr->t0);
	json_t *o = json_pack("{s:s, s:s, s:o, s:o, s:o, s:o, s:b, s:i, s:i, s:o, s:o, s:o, s:o, s:o}",
			 "name", p->name, "type", s->ops->name, "pids", pids,
			 "started_ns", since(s->started, lr->t0),
			 "stop_requested_ns", since(s->term_at, lr->t0),
			 "stopped_ns", ran ? since(s->stopped, lr->t0) : json_null(),
			 "ended_early", s->ended_early, "killed", (int)killed,
			 "stragglers_killed", (int)s->stragglers, "processes", procs, "exit", exit_info,
			 "granted", ran ? granted_json(s, lr) : json_object(),
			 "stats", ran ? stats_json(s) : json_object(), "warnings", w);
	if (ran && s->ops->report) {
		json_t *more = json_array();
		s->ops->report(&s->run, s->procs[0].slot, lr->t0, o, more);
		json_decref(more);
	}
	return o;
}

json_t *hg_loadrun_to_json(const struct hg_loadrun *lr)
{
	json_t *a = json_array();
	for (size_t i = 0; lr && i < lr->n_loads; i++)
		json_array_append_new(a, load_json(&lr->loads[i], lr));
	return a;
}

/* The run's warnings about loads: the supervisor's own, then each load's,
 * named, so the summary shows them too. */
json_t *hg_loadrun_warnings(const struct hg_loadrun *lr)
{
	if (!lr)
		return json_array();
	json_t *all = json_deep_copy(lr->warnings);
	for (size_t i = 0; i < lr->n_loads; i++) {
		size_t k;
		json_t *w, *mine = json_deep_copy(lr->loads[i].warnings);
		const struct hg_lsup *s = &lr->loads[i];
		const char *why = atomic_load(&lr->was_stopped) ? "hgrun itself was stopped (SIGSTOP) "
				  "meanwhile" : "the supervisor did not get a CPU in time";
		if (s->late_start_ns)
			hg_json_appendf(mine, "started %.1f ms after its start time (%s)",
					(double)s->late_start_ns / 1e6, why);
		if (s->late_stop_ns)
			hg_json_appendf(mine, "stopped %.1f ms after its stop time (%s)",
					(double)s->late_stop_ns / 1e6, why);
		if (lr->loads[i].started)
			proc_warnings(mine, &lr->loads[i], lr->t0);   /* refusals, early ends */
		json_array_foreach(mine, k, w)
			json_array_append_new(all, json_sprintf("load %s: %s",
				lr->plan->loads[i].name, json_string_value(w)));
		json_decref(mine);
	}
	return all;
}

bool hg_loadrun_shortfall(const struct hg_loadrun *lr)
{
	for (size_t i = 0; lr && i < lr->n_loads; i++) {
		const struct hg_lsup *s = &lr->loads[i];
		if (!s->started)
			continue;
		const struct hg_load_slot *s0 = s->procs[0].slot;
		if (s0->sched_error || s0->nice_error || s0->affinity_error)
			return true;
		for (unsigned p = 0; p < s->run.n_procs; p++) {
			const struct hg_lproc *pr = &s->procs[p];
			bool early = pr->reaped && pr->status >= 0 &&
				     (!s->term_at || pr->ended < s->term_at);
			if (pr->slot->error[0] || early || pr->slot->status_valid == 2 ||
			    outside_kill(pr))
				return true;
		}
	}
	return false;
}

void hg_loadrun_files(const struct hg_plan *plan, const struct hg_loadrun *lr, json_t *files)
{
	for (size_t i = 0; plan && i < plan->n_loads; i++) {
		if (plan->loads[i].ops->files)
			plan->loads[i].ops->files(&plan->loads[i], files);
		const struct hg_lsup *s = lr && i < lr->n_loads ? &lr->loads[i] : NULL;
		if (s && atomic_load_explicit(&s->left_set, memory_order_acquire)) {
			char key[NAME_MAX + 16];
			snprintf(key, sizeof(key), "load.%s.left", plan->loads[i].name);
			json_object_set_new(files, key, json_string(s->left));
		}
	}
}
