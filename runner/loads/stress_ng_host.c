/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Finding stress-ng on PATH and asking it for its stressors, for the
 * stress_ng load's supported() and check() (validate time) and prepare. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "loads/stress_ng_host.h"

extern char **environ;

#define DEFAULT_PATH "/usr/local/bin:/usr/bin:/bin"

bool hg_stress_ng_find(char *path, size_t size, char *why, size_t why_size)
{
	const char *env = getenv("PATH");
	const char *dirs = env && env[0] ? env : DEFAULT_PATH;
	for (const char *d = dirs; d; d = strchr(d, ':') ? strchr(d, ':') + 1 : NULL) {
		size_t len = strcspn(d, ":");
		if (len == 0 || d[0] != '/')        /* relative PATH entries are not searched */
			continue;
		if (snprintf(path, size, "%.*s/stress-ng", (int)len, d) >= (int)size)
			continue;
		if (access(path, X_OK) == 0)
			return true;
	}
	snprintf(why, why_size, "stress-ng not found on PATH (%.120s); install it: apt-get install "
		 HG_STRESS_NG_PACKAGE, dirs);
	return false;
}

static struct {
	char *text;             /* `stress-ng --stressors`, words split by NULs */
	const char **names;
	size_t n;
} list;

/* Runs exe with argv, its stdout (and stderr when both) into buf (NUL
 * terminated); bytes read, or -1 when it could not run or did not exit 0. */
static ssize_t ask(const char *exe, char *const *argv, bool both, char *buf, size_t size)
{
	int p[2];
	if (pipe2(p, O_CLOEXEC) < 0)
		return -1;
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, p[1], 1);
	if (both)
		posix_spawn_file_actions_adddup2(&fa, p[1], 2);
	else
		posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	pid_t pid;
	int rc = posix_spawn(&pid, exe, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(p[1]);
	size_t used = 0;
	char rest[4096];
	ssize_t n;
	/* to its end: what does not fit is read and dropped */
	while (rc == 0 && ((n = used < size - 1 ? read(p[0], buf + used, size - 1 - used)
					       : read(p[0], rest, sizeof(rest))) > 0 ||
			   (n < 0 && errno == EINTR)))
		used += n > 0 && used < size - 1 ? (size_t)n : 0;
	close(p[0]);
	buf[used] = '\0';
	int st;
	if (rc != 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
		return -1;
	return (ssize_t)used;
}

int hg_stress_ng_dry_run(const char *exe, char *const *argv, char *err, size_t errlen)
{
	char out[4096];
	size_t n = 0;
	while (argv[n])
		n++;
	char **dry = calloc(n + 2, sizeof(char *));
	if (!dry)
		return 0;       /* stress-ng checks again when it runs */
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		/* no file or directory of ours: the load's fds 3 and 4 (loads/stress_ng.c)
		 * are not the dry run's */
		if ((!strcmp(argv[i], "--yaml") ||
		     (!strcmp(argv[i], "--temp-path") && i + 1 < n &&
		      !strcmp(argv[i + 1], "/proc/self/fd/4"))) && i + 1 < n) {
			i++;
			continue;
		}
		dry[k++] = argv[i];
	}
	dry[k] = (char *)"--dry-run";
	ssize_t len = ask(exe, dry, true, out, sizeof(out));
	free(dry);
	if (len >= 0)
		return 0;
	/* Its complaint: the first line that is not stress-ng's info chatter. */
	char *save = NULL, *line = strtok_r(out, "\n", &save);
	while (line && strstr(line, "info:"))
		line = strtok_r(NULL, "\n", &save);
	int max = 150;
	snprintf(err, errlen, "stress-ng --dry-run refused the arguments: %.*s%s",
		 max, line ? line : "(no message)", line && strlen(line) > (size_t)max ? "..." : "");
	return -1;
}

static void ask_once(void)
{
	char exe[4096], why[256];
	size_t size = 64 * 1024;
	if (!hg_stress_ng_find(exe, sizeof(exe), why, sizeof(why)) || !(list.text = malloc(size)))
		return;
	char *argv[] = { (char *)"stress-ng", (char *)"--stressors", NULL };
	ssize_t len = ask(exe, argv, false, list.text, size);
	size_t words = 0;
	for (ssize_t i = 0; i < len; i++)
		words += list.text[i] != ' ' && list.text[i] != '\n' &&
			 (i == 0 || list.text[i - 1] == ' ' || list.text[i - 1] == '\n');
	if (len <= 0 || !(list.names = calloc(words, sizeof(char *))))
		return;
	for (char *save = NULL, *w = strtok_r(list.text, " \n", &save); w && list.n < words;
	     w = strtok_r(NULL, " \n", &save))
		list.names[list.n++] = w;
}

const char *const *hg_stress_ng_stressors(size_t *n)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, ask_once);
	*n = list.n;
	return list.names;
}
