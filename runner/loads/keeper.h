/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The keeper of a load that runs a program (exec's shell, stress-ng): the
 * load process forks the program and keeps it.
 *  - the program's stdout and stderr come through pipes into
 *    <result_dir>/load-<name>.out and .err, at most output_max bytes each;
 *    the rest is read and discarded (counted, the program runs on);
 *  - the keeper is a child subreaper, so whatever the program starts stays
 *    below it even after leaving the process group (setsid, a daemon);
 *  - on SIGTERM (sent to the whole process group at stop) it waits for the
 *    program, records its status, and kills the descendants that had left
 *    the group;
 *  - if hgrun dies (parent-death signal SIGHUP), it SIGKILLs its group and
 *    every descendant, so the program's processes do not outlive hgrun. */
#ifndef HG_KEEPER_H
#define HG_KEEPER_H

#include <jansson.h>
#include <stdint.h>

#include "plan/load.h"

struct hg_keeper {
	int out[2];                     /* load-NAME.out, .err (hg_keeper_open_outputs) */
	uint64_t output_max;            /* bytes kept of each */
	int extra_fd;                   /* given to the program as fd 3; -1: none */
	int dir_fd;                     /* given to it as fd 4 (with extra_fd); -1: none */
	/* In the program's process, its stdio and fds set: execs (returns
	 * only when that failed, errno set). */
	void (*exec)(const void *arg);
	const void *arg;
	const char *what;               /* the program, for "cannot exec WHAT" */
};

/* In hgrun's prepare: creates load-NAME.out and .err in the directory fd
 * dir (shown: its name, for messages). */
int hg_keeper_open_outputs(int dir, const char *shown, const char *name, int fd[2], char *err,
			   size_t errlen);
/* The load process's run: keeps the program until the stop; returns the
 * exit status for run (the program's status is in the slot). */
int hg_keeper_run(const struct hg_keeper *k, const char *name, struct hg_load_slot *slot);
/* result.json: the load's `output` object (into load, when not NULL) and
 * the warnings about cut output and killed escapees. */
void hg_keeper_report(uint64_t output_max, const char *name, const struct hg_load_slot *slot,
		      int64_t t0, json_t *load, json_t *warnings);
/* result.json `files`: load.NAME.out and .err. */
void hg_keeper_files(const char *name, json_t *files);

#endif
