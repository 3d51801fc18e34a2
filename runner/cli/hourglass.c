/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `hgrun hourglass ARGS...`: a Hourglass 0.5 command line (its appendix A,
 * the table in docs/scenario.md "From Hourglass command lines") turned into
 * the equivalent scenario YAML on stdout; every mapping that is not one to
 * one is said on stderr.  The text is loaded as `hgrun validate` would load
 * it before it is written: a command line whose values hgrun refuses (an
 * exec longer than its period) still prints the YAML, to edit, but the
 * errors go to stderr and the exit status is 2, as validate's.  Nothing is
 * run. */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "base/exitcodes.h"
#include "base/units.h"
#include "cli/hourglass.h"
#include "cli/plugins.h"
#include "plan/plan.h"
#include "scenario/diag.h"
#include "scenario/scenario.h"

#define HG_MAX_HOURGLASS_THREADS 1024

enum hg_hg_field { F_PRIO = 1, F_WORK = 2, F_TIMER = 4, F_RES = 8, F_START = 16, F_FINISH = 32 };

/* One Hourglass thread's options, as YAML text fragments. */
struct hg_thread_opts {
	unsigned set;                 /* enum hg_hg_field */
	char prio[16];
	char work[128];               /* the workload mapping */
	bool sleeps;                  /* PERIODIC, LAT: takes a timer */
	char timer[16];               /* NATIVE HR RTC MM */
	char res[96];
	char start[32], finish[32];
};

struct hg_hourglass {
	FILE *err;
	int argc, i;
	char **argv;
	unsigned n;
	char duration[32];
	struct hg_thread_opts *th;
	int current;                  /* -t N; -1: -a (all); -2: none yet */
};

__attribute__((format(printf, 2, 3)))
static int fail(struct hg_hourglass *h, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(h->err, "hgrun hourglass: error: ");
	vfprintf(h->err, fmt, ap);
	va_end(ap);
	fprintf(h->err, "\n(Hourglass 0.5 options: docs/scenario.md, \"From Hourglass command "
		"lines\")\n");
	return HG_EXIT_USAGE;
}

static const char *next_arg(struct hg_hourglass *h, const char *opt)
{
	if (h->i + 1 >= h->argc) {
		fail(h, "%s needs a value", opt);
		return NULL;
	}
	return h->argv[++h->i];
}

/* A Hourglass time ("3m, 1.5s, 1020ms, 87.0us") as a scenario duration: the
 * text itself when exact, else the nearest ns, said on stderr. */
static int time_value(struct hg_hourglass *h, const char *opt, const char *s, char *out,
		      size_t len)
{
	uint64_t ns;
	bool rounded;
	char msg[HG_ERRLEN];
	if (hg_parse_duration_nearest(s, &ns, &rounded, msg) != 0) {
		fail(h, "%s: %s", opt, msg);
		return -1;
	}
	/* The text itself when it is exact and fits; an exact value written
	 * longer ("1.0000000000000000000000000000ms") as its ns, never cut
	 * ("...0000m" would be minutes). */
	if (!rounded && snprintf(out, len, "%s", s) < (int)len)
		return 0;
	if (!rounded) {
		snprintf(out, len, "%lluns", (unsigned long long)ns);
		return 0;
	}
	snprintf(out, len, "%lluns", (unsigned long long)ns);
	fprintf(h->err, "hgrun hourglass: %s %s is finer than 1 ns: used %lluns, the nearest "
		"(hgrun times are whole ns)\n", opt, s, (unsigned long long)ns);
	return 0;
}

static int kb_value(struct hg_hourglass *h, const char *opt, const char *s, char *out,
		    size_t len)
{
	uint64_t kb;
	char msg[HG_ERRLEN];
	if (hg_parse_uint(s, 1, 1u << 20, &kb, msg) != 0) {
		fail(h, "%s: the working set is a whole number of KB (Hourglass's unit): %s",
		     opt, msg);
		return -1;
	}
	snprintf(out, len, "%lluKiB", (unsigned long long)kb);
	return 0;
}

/* Applies one per-thread option to -t N's thread or, after -a, to all. */
static void apply(struct hg_hourglass *h, const struct hg_thread_opts *o, unsigned field)
{
	for (unsigned t = 0; t < h->n; t++) {
		if (h->current >= 0 && (unsigned)h->current != t)
			continue;
		struct hg_thread_opts *d = &h->th[t];
		d->set |= field;
		if (field == F_PRIO)
			memcpy(d->prio, o->prio, sizeof(d->prio));
		if (field == F_WORK) {
			memcpy(d->work, o->work, sizeof(d->work));
			d->sleeps = o->sleeps;
		}
		if (field == F_TIMER)
			memcpy(d->timer, o->timer, sizeof(d->timer));
		if (field == F_RES)
			memcpy(d->res, o->res, sizeof(d->res));
		if (field == F_START)
			memcpy(d->start, o->start, sizeof(d->start));
		if (field == F_FINISH)
			memcpy(d->finish, o->finish, sizeof(d->finish));
	}
}

static const char *const priorities[] = { "IDLE", "LOW", "NORMAL", "HIGH", "HIGHEST",
					  "RTLOW", "RTMED", "RTHIGH" };

static int workload(struct hg_hourglass *h, struct hg_thread_opts *o)
{
	const char *w = next_arg(h, "-w");
	char a[32], b[32];
	const char *x, *y;
	if (!w)
		return -1;
	o->sleeps = false;
	if (strcmp(w, "CPU") == 0) {
		snprintf(o->work, sizeof(o->work), "{type: cpu}");
	} else if (strcmp(w, "CPU_SCAN") == 0) {
		if (!(x = next_arg(h, "-w CPU_SCAN")) || kb_value(h, "-w CPU_SCAN", x, a, sizeof(a)))
			return -1;
		snprintf(o->work, sizeof(o->work), "{type: cpu_scan, working_set: %s}", a);
	} else if (strcmp(w, "CPU_YIELD") == 0) {
		if (!(x = next_arg(h, "-w CPU_YIELD")) ||
		    time_value(h, "-w CPU_YIELD", x, a, sizeof(a)))
			return -1;
		snprintf(o->work, sizeof(o->work), "{type: cpu_yield, yield_after: %s}", a);
	} else if (strcmp(w, "CPU_SCAN_YIELD") == 0) {
		if (!(x = next_arg(h, "-w CPU_SCAN_YIELD")) ||
		    kb_value(h, "-w CPU_SCAN_YIELD", x, a, sizeof(a)) ||
		    !(y = next_arg(h, "-w CPU_SCAN_YIELD")) ||
		    time_value(h, "-w CPU_SCAN_YIELD", y, b, sizeof(b)))
			return -1;
		snprintf(o->work, sizeof(o->work),
			 "{type: cpu_scan_yield, working_set: %s, yield_after: %s}", a, b);
	} else if (strcmp(w, "PERIODIC") == 0 || strcmp(w, "CPU_PERIODIC") == 0) {
		bool cpu = w[0] == 'C';
		if (!(x = next_arg(h, w)) || time_value(h, w, x, a, sizeof(a)) ||
		    !(y = next_arg(h, w)) || time_value(h, w, y, b, sizeof(b)))
			return -1;
		snprintf(o->work, sizeof(o->work), "{type: %s, exec: %s, period: %s}",
			 cpu ? "cpu_periodic" : "periodic", a, b);
		o->sleeps = !cpu;
	} else if (strcmp(w, "LAT") == 0) {
		if (!(x = next_arg(h, "-w LAT")) || time_value(h, "-w LAT", x, a, sizeof(a)))
			return -1;
		/* Hourglass's rule: the next wake-up is a period after the actual one. */
		snprintf(o->work, sizeof(o->work), "{type: latency, period: %s, align: relative}", a);
		o->sleeps = true;
	} else {
		return fail(h, "-w %s: unknown workload (CPU, CPU_SCAN, CPU_YIELD, CPU_SCAN_YIELD, "
			    "PERIODIC, CPU_PERIODIC, LAT)", w), -1;
	}
	return 0;
}

/* One option at argv[h->i]; -1 after an error was printed. */
static int option(struct hg_hourglass *h)
{
	const char *opt = h->argv[h->i], *v, *w;
	struct hg_thread_opts o;
	memset(&o, 0, sizeof(o));
	char msg[HG_ERRLEN];
	uint64_t u;
	if (strcmp(opt, "-n") == 0) {
		return 0;   /* read first, in hg_hourglass_command */
	} else if (strcmp(opt, "-d") == 0) {
		if (!(v = next_arg(h, opt)) || time_value(h, "-d", v, h->duration,
							  sizeof(h->duration)))
			return -1;
	} else if (strcmp(opt, "-c") == 0) {
		fprintf(h->err, "hgrun hourglass: -c (raw trace in cycles): trace.bin holds every "
			"interval in ns; `hgreport export --format hourglass` prints Hourglass's ms "
			"lines\n");
	} else if (strcmp(opt, "-e") == 0) {
		if (!(v = next_arg(h, opt)))
			return -1;
		if (hg_parse_uint(v, 1, UINT32_MAX, &u, msg) != 0) {
			fail(h, "-e: %s", msg);
			return -1;
		}
		fprintf(h->err, "hgrun hourglass: -e %s: left out, hgrun streams every interval to "
			"disk (trace.records sizes its ring)\n", v);
	} else if (strcmp(opt, "-a") == 0) {
		h->current = -1;
	} else if (strcmp(opt, "-t") == 0) {
		if (!(v = next_arg(h, opt)))
			return -1;
		if (hg_parse_uint(v, 0, h->n - 1, &u, msg) != 0)
			return fail(h, "-t %s: a thread number 0..n-1 (-n gives n): %s", v, msg), -1;
		h->current = (int)u;
	} else if (strcmp(opt, "-p") && strcmp(opt, "-rh") && strcmp(opt, "-rs") &&
		   strcmp(opt, "-w") && strcmp(opt, "-i") && strcmp(opt, "-s") && strcmp(opt, "-f")) {
		return fail(h, "unknown option '%s' (Hourglass 0.5 takes -n -d -c -t -a -e -p -rh "
			    "-rs -w -i -s -f)", opt), -1;
	} else if (h->current == -2) {
		return fail(h, "%s before -t or -a: per-thread options need one", opt), -1;
	} else if (strcmp(opt, "-p") == 0) {
		if (!(v = next_arg(h, opt)))
			return -1;
		bool known = false;
		for (size_t k = 0; k < sizeof(priorities) / sizeof(priorities[0]); k++)
			known |= strcmp(v, priorities[k]) == 0;
		if (!known)
			return fail(h, "-p %s: unknown priority (IDLE, LOW, NORMAL, HIGH, HIGHEST, "
				    "RTLOW, RTMED, RTHIGH)", v), -1;
		snprintf(o.prio, sizeof(o.prio), "%s", v);
		apply(h, &o, F_PRIO);
	} else if (strcmp(opt, "-rh") == 0 || strcmp(opt, "-rs") == 0) {
		char a[32], b[32];
		if (!(v = next_arg(h, opt)) || time_value(h, opt, v, a, sizeof(a)) ||
		    !(w = next_arg(h, opt)) || time_value(h, opt, w, b, sizeof(b)))
			return -1;
		snprintf(o.res, sizeof(o.res), "{budget: %s, period: %s, mode: %s}", a, b,
			 opt[2] == 'h' ? "hard" : "soft");
		apply(h, &o, F_RES);
	} else if (strcmp(opt, "-w") == 0) {
		if (workload(h, &o))
			return -1;
		apply(h, &o, F_WORK);
	} else if (strcmp(opt, "-i") == 0) {
		if (!(v = next_arg(h, opt)))
			return -1;
		if (strcmp(v, "NATIVE") && strcmp(v, "HR") && strcmp(v, "RTC") && strcmp(v, "MM"))
			return fail(h, "-i %s: unknown timer (NATIVE, HR, RTC, MM)", v), -1;
		snprintf(o.timer, sizeof(o.timer), "%s", v);
		apply(h, &o, F_TIMER);
	} else if (strcmp(opt, "-s") == 0 || strcmp(opt, "-f") == 0) {
		char *dst = opt[1] == 's' ? o.start : o.finish;
		if (!(v = next_arg(h, opt)) || time_value(h, opt, v, dst, sizeof(o.start)))
			return -1;
		apply(h, &o, opt[1] == 's' ? F_START : F_FINISH);
	}
	return 0;
}

/* The scenario timer for Hourglass's -i, said once per kind used. */
static const char *timer_for(const char *hg, unsigned *said, FILE *err)
{
	if (strcmp(hg, "HR") == 0)
		return "absolute";
	if (strcmp(hg, "NATIVE") == 0) {
		if (!(*said & 1))
			fprintf(err, "hgrun hourglass: -i NATIVE (usleep): timer sleep, "
				"high-resolution on this kernel; for Linux 2.4's 10 ms tick write "
				"timer: {type: sleep, tick: 10ms}\n");
		*said |= 1;
		return "sleep";
	}
	if (strcmp(hg, "RTC") == 0) {
		if (!(*said & 2))
			fprintf(err, "hgrun hourglass: -i RTC: timer absolute (clock_nanosleep on "
				"high-resolution timers, which is also what Linux uses to emulate "
				"/dev/rtc's periodic interrupts; this machine %s /dev/rtc)\n",
				access("/dev/rtc", F_OK) == 0 ? "has" : "has no");
		*said |= 2;
		return "absolute";
	}
	if (!(*said & 4))
		fprintf(err, "hgrun hourglass: -i MM (Win32 multimedia timers): timer absolute, "
			"the high-resolution timer Linux has\n");
	*said |= 4;
	return "absolute";
}

/* The command line as typed, for a YAML comment and a double-quoted string:
 * control characters, quotes and backslashes become '?'. */
static void quote_command(FILE *out, int argc, char **argv)
{
	fputs("hourglass", out);
	for (int i = 0; i < argc; i++) {
		fputc(' ', out);
		for (const unsigned char *c = (const unsigned char *)argv[i]; *c; c++)
			fputc(*c < 0x20 || *c == 0x7f || *c == '"' || *c == '\\' ? '?' : *c, out);
	}
}

static bool same_thread(const struct hg_thread_opts *a, const struct hg_thread_opts *b)
{
	return a->set == b->set && !strcmp(a->prio, b->prio) && !strcmp(a->work, b->work) &&
	       !strcmp(a->timer, b->timer) && !strcmp(a->res, b->res) &&
	       !strcmp(a->start, b->start) && !strcmp(a->finish, b->finish);
}

static void write_thread(FILE *out, FILE *err, const struct hg_thread_opts *t,
			 const char *name, unsigned count, bool pin, unsigned *said)
{
	fprintf(out, "  - name: %s\n", name);
	if (count > 1)
		fprintf(out, "    count: %u\n", count);
	if (pin)
		fputs("    cpus: [0]\n", out);
	if (t->set & F_RES)
		fprintf(out, "    reservation: %s\n", t->res);
	else if (t->set & F_PRIO)
		fprintf(out, "    priority: %s\n", t->prio);
	if (t->sleeps)
		fprintf(out, "    timer: %s\n",
			timer_for((t->set & F_TIMER) ? t->timer : "NATIVE", said, err));
	if (t->set & F_START)
		fprintf(out, "    start: %s\n", t->start);
	if (t->set & F_FINISH)
		fprintf(out, "    finish: %s\n", t->finish);
	fprintf(out, "    workload: %s\n", (t->set & F_WORK) ? t->work : "{type: cpu}");
}

static int write_scenario(struct hg_hourglass *h, FILE *out)
{
	bool reserved = false, timer_unused = false, both = false;
	unsigned said = 0;
	for (unsigned t = 0; t < h->n; t++) {
		reserved |= (h->th[t].set & F_RES) != 0;
		timer_unused |= (h->th[t].set & F_TIMER) && !h->th[t].sleeps;
		both |= (h->th[t].set & F_RES) && (h->th[t].set & F_PRIO);
	}
	if (both)
		fprintf(h->err, "hgrun hourglass: a thread with -rh/-rs and -p: the reservation is "
			"kept, the priority left out (a scenario thread has one or the other)\n");
	if (timer_unused)
		fprintf(h->err, "hgrun hourglass: -i on a thread that never sleeps (not PERIODIC "
			"or LAT): left out, as Hourglass ignored it\n");
	if (!h->duration[0]) {
		snprintf(h->duration, sizeof(h->duration), "10s");
		fprintf(h->err, "hgrun hourglass: no -d: duration 10s, Hourglass's default\n");
	}
	if (reserved)
		fprintf(h->err, "hgrun hourglass: reservations (SCHED_DEADLINE) need the threads' "
			"affinity to span the root domain: no thread is pinned\n");
	else
		fprintf(h->err, "hgrun hourglass: every thread on CPU 0 (cpus: [0]), as on the "
			"paper's uniprocessor; remove cpus to spread them\n");
	fputs("# Translated by `hgrun ", out);
	quote_command(out, h->argc, h->argv);
	fputs("`\n# (docs/scenario.md, \"From Hourglass command lines\").\n", out);
	fputs("hgrun: 1\nname: hourglass\ndescription: \"", out);
	quote_command(out, h->argc, h->argv);
	fprintf(out, "\"\nduration: %s\nthreads:\n", h->duration);
	bool all_same = true;
	for (unsigned t = 1; t < h->n; t++)
		all_same &= same_thread(&h->th[0], &h->th[t]);
	/* Names t0..tN-1 (or one set t.0..t.N-1): Hourglass's thread ids, in
	 * result.json's order, as `hgreport export --format hourglass` numbers them. */
	if (all_same && h->n > 1) {
		write_thread(out, h->err, &h->th[0], "t", h->n, !reserved, &said);
		return 0;
	}
	for (unsigned t = 0; t < h->n; t++) {
		char name[16];
		snprintf(name, sizeof(name), "t%u", t);
		write_thread(out, h->err, &h->th[t], name, 1, !reserved, &said);
	}
	return 0;
}

/* The scenario, loaded as validate loads a file, then written to out.  The
 * loader's errors name the lines of the text written ("translation:LINE:COL"). */
static int write_checked(struct hg_hourglass *h, FILE *out)
{
	char *yaml = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&yaml, &len);
	if (!mem) {
		fprintf(h->err, "hgrun hourglass: out of memory\n");
		return HG_EXIT_FAILED;
	}
	int rc = write_scenario(h, mem);
	if (fclose(mem) != 0 || !yaml) {
		free(yaml);
		fprintf(h->err, "hgrun hourglass: out of memory\n");
		return HG_EXIT_FAILED;
	}
	if (rc == HG_EXIT_OK) {
		struct hg_diags d;
		struct hg_plan *plan = hg_scenario_load_string("translation", yaml,
							       &hg_builtin_plugins, &d);
		if (plan) {
			hg_plan_free(plan);
		} else {
			fprintf(h->err, "hgrun hourglass: the translation is not a valid scenario "
				"(lines of the YAML written to stdout); Hourglass ran such values, "
				"hgrun refuses them: change the option they came from\n");
			hg_diags_print(&d, h->err);
			rc = HG_EXIT_INVALID;
		}
		fwrite(yaml, 1, len, out);
	}
	free(yaml);
	return rc;
}

int hg_hourglass_command(int argc, char **argv, FILE *out, FILE *err)
{
	struct hg_hourglass h = { .err = err, .argc = argc, .argv = argv, .current = -2 };
	char msg[HG_ERRLEN];
	/* -n first: per-thread options need the thread count, wherever -n stands. */
	int n_at = -1;
	for (int i = 0; i < argc; i++)
		if (strcmp(argv[i], "-n") == 0)
			n_at = i;
	if (n_at < 0)
		return fail(&h, "-n <number of threads> is Hourglass's one mandatory option "
			    "(e.g. hgrun hourglass -n 1 -d 5s -t 0 -p RTHIGH -w LAT 5.3ms)");
	uint64_t n;
	if (n_at + 1 >= argc || hg_parse_uint(argv[n_at + 1], 1, HG_MAX_HOURGLASS_THREADS, &n,
					      msg) != 0)
		return fail(&h, "-n: the number of threads, 1..1024 (%s)",
			    n_at + 1 < argc ? msg : "no value");
	h.n = (unsigned)n;
	h.th = calloc(h.n, sizeof(*h.th));
	if (!h.th) {
		fprintf(err, "hgrun hourglass: out of memory\n");
		return HG_EXIT_FAILED;
	}
	int rc = HG_EXIT_OK;
	for (h.i = 0; h.i < argc && rc == HG_EXIT_OK; h.i++) {
		if (h.i == n_at)
			h.i++;
		else if (option(&h) != 0)
			rc = HG_EXIT_USAGE;
	}
	if (rc == HG_EXIT_OK)
		rc = write_checked(&h, out);
	free(h.th);
	return rc;
}
