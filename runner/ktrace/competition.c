/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Snapshots of /proc for the competition measures of ktrace/competition.h. */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/grow.h"
#include "base/timeutil.h"
#include "ktrace/competition.h"
#include "ktrace/forks.h"

#define PF_KTHREAD 0x00200000u

struct proc_sample {
	pid_t pid;
	char comm[16];
	bool kthread;
	int last_cpu;
	uint64_t ticks;          /* utime + stime, in clock ticks */
};

struct snapshot {
	int64_t mono_ns;
	uint64_t steal[CPU_SETSIZE], irq[CPU_SETSIZE], softirq[CPU_SETSIZE];  /* ticks */
	uint64_t intr[CPU_SETSIZE];
	struct proc_sample *procs;
	size_t n_procs;
};

struct hg_competition {
	cpu_set_t cpus;
	bool ended;
	struct snapshot before, after;
	struct hg_forks *forks;      /* hgrun's process tree, when the scenario has loads */
};

void hg_proc_stat_parse(FILE *f, uint64_t *steal, uint64_t *irq, uint64_t *softirq)
{
	char line[512];
	while (fgets(line, sizeof(line), f)) {
		int cpu;
		unsigned long long v[8];
		if (sscanf(line, "cpu%d %llu %llu %llu %llu %llu %llu %llu %llu", &cpu, &v[0], &v[1],
			   &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) == 9 &&
		    cpu >= 0 && cpu < CPU_SETSIZE) {
			irq[cpu] = v[5];
			softirq[cpu] = v[6];
			steal[cpu] = v[7];
		}
	}
}

void hg_proc_interrupts_parse(FILE *f, uint64_t *intr)
{
	char *line = NULL;
	size_t cap = 0;
	int cols[CPU_SETSIZE], n_cols = 0;
	if (getline(&line, &cap, f) > 0)
		for (char *p = line; (p = strstr(p, "CPU")) && n_cols < CPU_SETSIZE; p += 3)
			cols[n_cols++] = atoi(p + 3);
	while (getline(&line, &cap, f) > 0) {
		char *p = strchr(line, ':');
		if (!p)
			continue;
		p++;
		unsigned long long v[CPU_SETSIZE];
		int k = 0;
		for (; k < n_cols; k++) {
			char *end;
			v[k] = strtoull(p, &end, 10);
			if (end == p)
				break;
			p = end;
		}
		if (k < n_cols)
			continue;   /* ERR:, MIS: one machine-wide count, not one per CPU */
		for (k = 0; k < n_cols; k++)
			if (cols[k] >= 0 && cols[k] < CPU_SETSIZE)
				intr[cols[k]] += v[k];
	}
	free(line);
}

static void read_stat(struct snapshot *s)
{
	FILE *f = fopen("/proc/stat", "re");
	if (!f)
		return;
	hg_proc_stat_parse(f, s->steal, s->irq, s->softirq);
	fclose(f);
}

static void read_interrupts(struct snapshot *s)
{
	FILE *f = fopen("/proc/interrupts", "re");
	if (!f)
		return;
	hg_proc_interrupts_parse(f, s->intr);
	fclose(f);
}

/* "pid (comm) state ppid ... flags(9) ... utime(14) stime(15) ... processor(39)" */
static bool read_proc(pid_t pid, struct proc_sample *ps)
{
	char path[64], buf[1024];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "re");
	if (!f)
		return false;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	char *open = strchr(buf, '('), *close = strrchr(buf, ')');
	if (!open || !close || close < open)
		return false;
	size_t len = (size_t)(close - open - 1);
	if (len > 15)
		len = 15;
	memcpy(ps->comm, open + 1, len);
	ps->comm[len] = '\0';
	ps->pid = pid;
	/* fields from 3 on, after ") " */
	unsigned long long field[40] = { 0 };
	char *p = close + 2;
	for (int k = 3; k <= 39 && *p; k++) {
		while (*p == ' ')
			p++;
		if (k == 3) {
			p++;
			continue;
		}
		field[k] = strtoull(p, &p, 10);
	}
	ps->kthread = (field[9] & PF_KTHREAD) != 0;
	ps->ticks = field[14] + field[15];
	ps->last_cpu = (int)field[39];
	return true;
}

static void read_procs(struct snapshot *s)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	size_t cap = 0;
	if (!d)
		return;
	while ((e = readdir(d)) != NULL) {
		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		struct proc_sample *p = hg_grown(s->procs, &cap, s->n_procs, sizeof(*p), 512);
		if (!p)
			break;
		s->procs = p;
		if (read_proc((pid_t)atoi(e->d_name), &s->procs[s->n_procs]))
			s->n_procs++;
	}
	closedir(d);
}

static void take(struct snapshot *s)
{
	read_stat(s);
	read_interrupts(s);
	read_procs(s);
	s->mono_ns = hg_now_ns();
}

struct hg_competition *hg_competition_begin(const cpu_set_t *cpus, bool loads)
{
	struct hg_competition *c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->cpus = *cpus;
	if (loads)
		c->forks = hg_forks_start(cpus);
	take(&c->before);
	return c;
}

void hg_competition_end(struct hg_competition *c)
{
	if (!c || c->ended)
		return;
	c->ended = true;
	hg_forks_stop(c->forks);
	take(&c->after);
}

const struct hg_forks *hg_competition_forks(const struct hg_competition *c)
{
	return c ? c->forks : NULL;
}

void hg_competition_free(struct hg_competition *c)
{
	if (!c)
		return;
	hg_forks_free(c->forks);
	free(c->before.procs);
	free(c->after.procs);
	free(c);
}

static const struct proc_sample *find_proc(const struct snapshot *s, pid_t pid)
{
	for (size_t i = 0; i < s->n_procs; i++)
		if (s->procs[i].pid == pid)
			return &s->procs[i];
	return NULL;
}

static int by_cpu_ns(const void *pa, const void *pb)
{
	const struct hg_outsider *a = pa, *b = pb;
	return a->cpu_ns > b->cpu_ns ? -1 : a->cpu_ns < b->cpu_ns;
}

static double tick_ns(void)
{
	long hz = sysconf(_SC_CLK_TCK);
	return 1e9 / (double)(hz > 0 ? hz : 100);
}

long hg_competition_outsiders(const struct hg_competition *c, const pid_t *exclude,
			      size_t n_exclude, struct hg_outsider **out)
{
	*out = NULL;
	if (!c || !c->ended)
		return 0;
	struct hg_outsider *v = malloc((c->after.n_procs + 1) * sizeof(*v));
	if (!v)
		return -1;
	size_t n = 0;
	pid_t self = getpid();
	for (size_t i = 0; i < c->after.n_procs; i++) {
		const struct proc_sample *a = &c->after.procs[i], *b = find_proc(&c->before, a->pid);
		bool excluded = a->pid == self;
		for (size_t k = 0; k < n_exclude && !excluded; k++)
			excluded = exclude[k] == a->pid;
		uint64_t before = b ? b->ticks : 0;
		bool on_ours = (a->last_cpu >= 0 && a->last_cpu < CPU_SETSIZE &&
				CPU_ISSET(a->last_cpu, &c->cpus)) ||
			       (b && b->last_cpu >= 0 && b->last_cpu < CPU_SETSIZE &&
				CPU_ISSET(b->last_cpu, &c->cpus));
		if (excluded || !on_ours || a->ticks <= before)
			continue;
		v[n].pid = a->pid;
		memcpy(v[n].comm, a->comm, sizeof(v[n].comm));
		v[n].kthread = a->kthread;
		v[n].cpu_ns = (uint64_t)((double)(a->ticks - before) * tick_ns());
		n++;
	}
	qsort(v, n, sizeof(*v), by_cpu_ns);
	*out = v;
	return (long)n;
}

int64_t hg_competition_window_ns(const struct hg_competition *c)
{
	return c && c->ended ? c->after.mono_ns - c->before.mono_ns : 0;
}

int hg_competition_n_cpus(const struct hg_competition *c)
{
	return c ? CPU_COUNT(&c->cpus) : 0;
}

static uint64_t delta(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

double hg_competition_steal_share(const struct hg_competition *c)
{
	int64_t window = hg_competition_window_ns(c);
	if (window <= 0)
		return 0;
	double steal = 0;
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &c->cpus))
			steal += (double)delta(c->after.steal[cpu], c->before.steal[cpu]) * tick_ns();
	return steal / ((double)window * hg_competition_n_cpus(c));
}

json_t *hg_competition_cpus_json(const struct hg_competition *c)
{
	int64_t window = hg_competition_window_ns(c);
	if (window <= 0)
		return json_null();
	json_t *cpus = json_array();
	double t = tick_ns(), steal_total = 0;
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &c->cpus))
			continue;
		uint64_t intr = delta(c->after.intr[cpu], c->before.intr[cpu]);
		double steal = (double)delta(c->after.steal[cpu], c->before.steal[cpu]) * t;
		steal_total += steal;
		json_array_append_new(cpus, json_pack("{s:i, s:I, s:I, s:I, s:I, s:f}", "cpu", cpu,
			"steal_ns", (json_int_t)steal,
			"irq_ns", (json_int_t)((double)delta(c->after.irq[cpu], c->before.irq[cpu]) * t),
			"softirq_ns", (json_int_t)((double)delta(c->after.softirq[cpu],
								 c->before.softirq[cpu]) * t),
			"interrupts", (json_int_t)intr,
			"interrupts_per_s", (double)intr * 1e9 / (double)window));
	}
	return json_pack("{s:I, s:o, s:I, s:f}", "window_ns", (json_int_t)window, "cpus", cpus,
			 "steal_ns", (json_int_t)steal_total, "steal_share",
			 hg_competition_steal_share(c));
}
