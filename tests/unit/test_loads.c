/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The load supervisor, end to end on this machine: every load type runs only
 * inside its window (start 50ms, stop 300ms), reports statistics, and leaves
 * no process and no file behind; a command that ignores SIGTERM is SIGKILLed
 * and counted; a command that escapes its process group is swept up. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "unit.h"
#include "base/fsutil.h"
#include "cli/plugins.h"
#include "loads/supervisor.h"
#include "scenario/scenario.h"

#define MS 1000000LL
#define SLACK (150 * MS)

static char tmpdir[64];
static int tmpfd = -1;

/* Unlinks every file directly in path. */
static void empty_dir(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			unlinkat(dirfd(d), e->d_name, 0);
	if (d)
		closedir(d);
}

struct lcase {
	const char *what;
	const char *load;       /* the flow mapping of loads[0] */
	const char *stat;       /* a stats field that must be > 0, or NULL */
	bool killed;            /* needs SIGKILL: stops after the grace period */
	const char *warning;    /* substring of the load's first warning, or NULL: none */
	const char *exit_signal;/* exec: how the command ended, or NULL */
	const char *granted;    /* "key=value" expected in granted, or NULL */
};

static const struct lcase cases[] = {
	{ "cpu", "{name: c, type: cpu, workers: 1}", "loops", false, NULL, NULL, NULL },
	{ "cpu default workers", "{name: c, type: cpu}", "cpu_ns", false, NULL, NULL, NULL },
	{ "memory", "{name: m, type: memory, size: 16MiB}", "passes", false, NULL, NULL, NULL },
	{ "memory two workers", "{name: m, type: memory, size: 4MiB, workers: 2}", "minor_faults", false, NULL, NULL, NULL },
	{ "io", "{name: i, type: io, size: 1MiB, dir: DIR}", "files", false, NULL, NULL, NULL },
	{ "fork", "{name: f, type: fork}", "forks", false, NULL, NULL, NULL },
	{ "procfs", "{name: p, type: procfs}", "reads", false, NULL, NULL, NULL },
	{ "tcp_stream loopback", "{name: rx, type: tcp_stream}", "mbps", false, NULL, NULL, NULL },
	/* refused: it keeps trying until its stop, then warns how long it tried */
	{ "tcp_stream connect refused", "{name: tx, type: tcp_stream, connect: \"127.0.0.1:1\"}", NULL,
	  false, "connect 127.0.0.1:1: Connection refused (", NULL, NULL },
	{ "exec spinning", "{name: e, type: exec, command: 'while :; do :; done'}", "cpu_ns", false,
	  NULL, "SIGTERM", NULL },
	{ "exec ignoring SIGTERM", "{name: e, type: exec, command: \"trap '' TERM; sleep 30\"}", NULL,
	  true, NULL, NULL, NULL },
	{ "exec pipeline", "{name: e, type: exec, command: 'yes | cat > /dev/null'}", "cpu_ns", false,
	  NULL, "SIGTERM", NULL },
	{ "priority batch nice 5", "{name: c, type: cpu, workers: 1, priority: {policy: batch, nice: 5}}",
	  "loops", false, NULL, NULL, "nice=5" },
	{ "priority RTLOW on cpu 0", "{name: c, type: fork, priority: RTLOW, cpus: [0]}", "forks",
	  false, NULL, NULL, "policy=fifo" },
};

static void check(bool ok, const char *what, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void check(bool ok, const char *what, const char *fmt, ...)
{
	if (ok)
		return;
	va_list ap;
	va_start(ap, fmt);
	printf("FAIL %s: ", what);
	vprintf(fmt, ap);
	printf("\n");
	va_end(ap);
	failed++;
}

static int64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void sleep_until(int64_t t)
{
	struct timespec ts = { t / 1000000000, t % 1000000000 };
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/* Child processes of ours still there (zombies included). */
static int children(void)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int n = 0;
	char path[300], buf[512];
	while (d && (e = readdir(d))) {
		snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
		FILE *f = fopen(path, "r");
		if (!f)
			continue;
		size_t len = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
		buf[len] = '\0';
		char *p = strrchr(buf, ')'), st;
		int ppid;
		if (p && sscanf(p + 1, " %c %d", &st, &ppid) == 2 && ppid == getpid())
			n++;
	}
	if (d)
		closedir(d);
	return n;
}

static int dir_entries(const char *path)
{
	DIR *d = opendir(path);
	int n = 0;
	struct dirent *e;
	while (d && (e = readdir(d)))
		n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	if (d)
		closedir(d);
	return n;
}


static struct hg_plan *plan_for(const char *load, const char *window)
{
	char yaml[1024], body[512];
	const char *dir = strstr(load, "DIR");
	if (dir)
		snprintf(body, sizeof(body), "%.*s%s%s", (int)(dir - load), load, tmpdir, dir + 3);
	else
		snprintf(body, sizeof(body), "%s", load);
	/* window goes inside the flow mapping: "{name: x, ...}" + ", start: ..}" */
	snprintf(yaml, sizeof(yaml),
		 "hgrun: 1\nname: t\nduration: 2s\nthreads:\n  - name: rt\nloads:\n  - %.*s, %s}\n",
		 (int)(strlen(body) - 1), body, window);
	struct hg_diags d;
	struct hg_plan *plan = hg_scenario_load_string("t.yaml", yaml, &hg_builtin_plugins, &d);
	if (!plan)
		printf("FAIL scenario: %s: %s\n", yaml, d.count ? d.items[0].message : "?");
	return plan;
}

static double num(json_t *o, const char *key)
{
	return json_number_value(json_object_get(o, key));
}

static void check_gone(const char *what, json_t *load)
{
	size_t i;
	json_t *pid;
	json_array_foreach(json_object_get(load, "pids"), i, pid) {
		pid_t p = (pid_t)json_integer_value(pid);
		check(kill(p, 0) != 0 && errno == ESRCH, what, "pid %d still exists", (int)p);
		check(killpg(p, 0) != 0 && errno == ESRCH, what, "process group %d still exists", (int)p);
	}
	check(children() == 0, what, "%d child processes left", children());
}

static void check_window(const struct lcase *c, json_t *load)
{
	double started = num(load, "started_ns"), stopped = num(load, "stopped_ns");
	double stop_at = 300 * MS;
	if (c->killed)
		stop_at += HG_LOADRUN_GRACE_NS;
	check(started >= 50 * MS && started <= 50 * MS + SLACK, c->what, "started_ns %.0f", started);
	check(stopped >= stop_at && stopped <= stop_at + SLACK, c->what, "stopped_ns %.0f, want %.0f",
	      stopped, stop_at);
	check((json_integer_value(json_object_get(load, "killed")) > 0) == c->killed, c->what,
	      "killed %lld", json_integer_value(json_object_get(load, "killed")));
}

/* A load's warnings but the supervisor's late start or stop (a busy machine's; the window's
 * times are checked by check_window): how many, and the first. */
static size_t own_warnings(json_t *w, const char **first)
{
	size_t i, n = 0;
	json_t *x;
	*first = NULL;
	json_array_foreach(w, i, x) {
		const char *s = json_string_value(x);
		if (s && strstr(s, "(the supervisor did not get a CPU in time)"))
			continue;
		if (!n++)
			*first = s;
	}
	return n;
}

static void check_result(const struct lcase *c, json_t *load)
{
	json_t *st = json_object_get(load, "stats"), *w = json_object_get(load, "warnings");
	check_window(c, load);
	if (c->stat)
		check(num(st, c->stat) > 0, c->what, "stats.%s = %g", c->stat, num(st, c->stat));
	const char *w0;
	size_t nw = own_warnings(w, &w0);
	if (c->warning)
		check(w0 && strstr(w0, c->warning), c->what, "warning '%s', want '%s'", w0 ? w0 : "",
		      c->warning);
	else
		check(nw == 0, c->what, "unexpected warning '%s'", w0 ? w0 : "");
	if (c->exit_signal) {
		const char *sig = json_string_value(json_object_get(json_object_get(load, "exit"), "signal"));
		check(sig && strcmp(sig, c->exit_signal) == 0, c->what, "exit.signal %s", sig ? sig : "null");
	}
	if (c->granted) {
		const char *eq = strchr(c->granted, '=');
		char key[32];
		snprintf(key, sizeof(key), "%.*s", (int)(eq - c->granted), c->granted);
		json_t *v = json_object_get(json_object_get(load, "granted"), key);
		char got[64] = "null";
		if (json_is_string(v))
			snprintf(got, sizeof(got), "%s", json_string_value(v));
		else if (json_is_integer(v))
			snprintf(got, sizeof(got), "%lld", json_integer_value(v));
		check(strcmp(got, eq + 1) == 0, c->what, "granted.%s = %s", key, got);
	}
	char *s = json_dumps(st, JSON_COMPACT | JSON_REAL_PRECISION(4));
	printf("  %-28s %s\n", c->what, s);
	free(s);
}

static void run_case(const struct lcase *c)
{
	int before = failed;
	struct hg_plan *plan = plan_for(c->load, "start: 50ms, stop: 300ms");
	char err[256];
	struct hg_loadrun *lr = plan ? hg_loadrun_create(plan, tmpfd, tmpdir, err, sizeof(err)) : NULL;
	check(lr != NULL, c->what, "create: %s", plan ? err : "no plan");
	if (lr) {
		int64_t t0 = now_ns();
		check(hg_loadrun_start(lr, t0) == 0, c->what, "start");
		sleep_until(t0 + 400 * MS);
		hg_loadrun_stop_all(lr);
		json_t *loads = hg_loadrun_to_json(lr);
		check_result(c, json_array_get(loads, 0));
		check_gone(c->what, json_array_get(loads, 0));
		json_decref(loads);
		hg_loadrun_destroy(lr);
	}
	hg_plan_free(plan);
	check(dir_entries(tmpdir) == (strstr(c->load, "exec") ? 2 : 0), c->what,
	      "%d files left in the result dir", dir_entries(tmpdir));
	empty_dir(tmpdir);
	if (failed == before)
		passed++;
}

/* stop_all mid-window returns promptly, and a load not yet started never starts. */
static void test_stop_all(void)
{
	const char *what = "stop_all mid-run";
	int before = failed;
	struct hg_plan *plan = plan_for("{name: c, type: cpu, workers: 1}", "start: 0s, stop: 2s");
	char err[256];
	struct hg_loadrun *lr = hg_loadrun_create(plan, tmpfd, tmpdir, err, sizeof(err));
	int64_t t0 = now_ns();
	hg_loadrun_start(lr, t0);
	sleep_until(t0 + 100 * MS);
	int64_t t = now_ns();
	hg_loadrun_stop_all(lr);
	hg_loadrun_stop_all(lr);        /* idempotent */
	check(now_ns() - t < 100 * MS, what, "stop_all took %lld ms", (long long)((now_ns() - t) / MS));
	json_t *loads = hg_loadrun_to_json(lr), *l0 = json_array_get(loads, 0);
	check(num(l0, "stopped_ns") < 200 * MS, what, "stopped_ns %.0f", num(l0, "stopped_ns"));
	check_gone(what, l0);
	json_decref(loads);
	hg_loadrun_destroy(lr);
	hg_plan_free(plan);

	what = "stop_all before start";
	plan = plan_for("{name: c, type: cpu, workers: 1}", "start: 1s, stop: 2s");
	lr = hg_loadrun_create(plan, tmpfd, tmpdir, err, sizeof(err));
	t0 = now_ns();
	hg_loadrun_start(lr, t0);
	sleep_until(t0 + 50 * MS);
	hg_loadrun_stop_all(lr);
	loads = hg_loadrun_to_json(lr);
	l0 = json_array_get(loads, 0);
	check(json_is_null(json_object_get(l0, "started_ns")) &&
	      json_array_size(json_object_get(l0, "pids")) == 0, what, "it started");
	json_decref(loads);
	hg_loadrun_destroy(lr);
	hg_plan_free(plan);
	passed += failed == before;
}

/* A command that leaves its process group (setsid) is killed at the end. */
static void test_escape(void)
{
	const char *what = "exec escaping with setsid";
	int before = failed;
	struct hg_plan *plan = plan_for("{name: e, type: exec, command: 'setsid sleep 30 & sleep 30'}",
					"start: 0s, stop: 200ms");
	char err[256];
	struct hg_loadrun *lr = hg_loadrun_create(plan, tmpfd, tmpdir, err, sizeof(err));
	int64_t t0 = now_ns();
	hg_loadrun_start(lr, t0);
	sleep_until(t0 + 300 * MS);
	hg_loadrun_stop_all(lr);
	json_t *w = hg_loadrun_warnings(lr), *loads = hg_loadrun_to_json(lr);
	/* the exec keeper is a subreaper: it kills the escaped one itself (a
	 * busy machine may add a late-start warning: looked for among all) */
	const char *found = NULL;
	size_t k;
	json_t *wk;
	json_array_foreach(w, k, wk)
		if (strstr(json_string_value(wk), "load e: 1 process started by the command had left "
			   "its process group (setsid?) and was killed"))
			found = json_string_value(wk);
	const char *w0 = json_string_value(json_array_get(w, 0));
	check(found != NULL, what, "no escape warning; first: '%s'", w0 ? w0 : "");
	check_gone(what, json_array_get(loads, 0));
	json_decref(w);
	json_decref(loads);
	hg_loadrun_destroy(lr);
	hg_plan_free(plan);
	empty_dir(tmpdir);
	passed += failed == before;
}

/* A free TCP port on loopback, with a socket still bound to it in *fd. */
static unsigned free_port(int *fd)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	*fd = socket(AF_INET, SOCK_STREAM, 0);
	if (bind(*fd, (struct sockaddr *)&a, sizeof(a)) != 0 || listen(*fd, 1) != 0 ||
	    getsockname(*fd, (struct sockaddr *)&a, &len) != 0)
		return 0;
	return ntohs(a.sin_port);
}

/* listen: the receiver counts exactly what a remote sender (us) sent. */
static void test_listen(void)
{
	const char *what = "tcp_stream listen";
	int before = failed, fd;
	unsigned port = free_port(&fd);
	close(fd);
	char load[128];
	snprintf(load, sizeof(load), "{name: rx, type: tcp_stream, listen: %u}", port);
	struct hg_plan *plan = plan_for(load, "start: 0s, stop: 300ms");
	char err[256];
	struct hg_loadrun *lr = hg_loadrun_create(plan, tmpfd, tmpdir, err, sizeof(err));
	check(lr != NULL, what, "create: %s", err);
	if (!lr)
		return;
	int64_t t0 = now_ns();
	hg_loadrun_start(lr, t0);
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int s = socket(AF_INET, SOCK_STREAM, 0);
	static char buf[1 << 16];
	long sent = 0;
	if (connect(s, (struct sockaddr *)&a, sizeof(a)) == 0)
		for (int i = 0; i < 64; i++)
			sent += send(s, buf, sizeof(buf), 0);
	close(s);
	sleep_until(t0 + 350 * MS);
	hg_loadrun_stop_all(lr);
	json_t *loads = hg_loadrun_to_json(lr), *l0 = json_array_get(loads, 0);
	double got = num(json_object_get(l0, "stats"), "bytes");
	check(sent == 64 << 16 && got == (double)sent, what, "sent %ld, received %.0f", sent, got);
	check_gone(what, l0);
	json_decref(loads);
	hg_loadrun_destroy(lr);
	hg_plan_free(plan);

	what = "tcp_stream listen port in use";
	port = free_port(&fd);
	snprintf(load, sizeof(load), "{name: rx, type: tcp_stream, listen: %u}", port);
	plan = plan_for(load, "start: 0s");
	lr = hg_loadrun_create(plan, tmpfd, tmpdir, err, sizeof(err));
	check(!lr && strstr(err, "load 'rx' (tcp_stream): listen: port") &&
	      strstr(err, "Address already in use"), what, "err '%s'", err);
	close(fd);
	hg_loadrun_destroy(lr);
	hg_plan_free(plan);
	passed += failed == before;
}

/* Preparation errors come back from create, naming the load. */
static void test_create_errors(void)
{
	const char *what = "io dir missing";
	int before = failed;
	struct hg_plan *plan = plan_for("{name: i, type: io, size: 1MiB, dir: /nonexistent/x}",
					"start: 0s");
	char err[256] = "";
	struct hg_loadrun *lr = hg_loadrun_create(plan, tmpfd, tmpdir, err, sizeof(err));
	check(!lr && strstr(err, "load 'i' (io): cannot create a directory in '/nonexistent/x'"),
	      what, "err '%s'", err);
	hg_loadrun_destroy(lr);
	hg_plan_free(plan);

	what = "exec result dir missing";
	plan = plan_for("{name: e, type: exec, command: 'true'}", "start: 0s");
	/* a result directory removed after it was opened */
	char gone[80];
	snprintf(gone, sizeof(gone), "%s/gone", tmpdir);
	mkdir(gone, 0700);
	int gone_fd = open(gone, O_RDONLY | O_DIRECTORY);
	rmdir(gone);
	lr = hg_loadrun_create(plan, gone_fd, "/nonexistent", err, sizeof(err));
	check(!lr && strstr(err, "cannot create /nonexistent/load-e.out"), what, "err '%s'", err);
	hg_loadrun_destroy(lr);
	close(gone_fd);
	hg_plan_free(plan);
	passed += failed == before;
}

int main(void)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/hg-test-loads-XXXXXX");
	if (!mkdtemp(tmpdir) || (tmpfd = open(tmpdir, O_RDONLY | O_DIRECTORY)) < 0) {
		perror("mkdtemp");
		return 1;
	}
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		run_case(&cases[i]);
	test_stop_all();
	test_escape();
	test_listen();
	test_create_errors();
	rmdir(tmpdir);
	return unit_report("test_loads");
}
