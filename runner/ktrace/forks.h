/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hgrun's own process tree during a run, from the kernel's proc connector
 * (NETLINK_CONNECTOR, PROC_EVENT_FORK; needs CAP_NET_ADMIN): every process
 * and thread hgrun and its descendants forked, on whatever CPU, however
 * briefly it lived.  The competition (ktrace/competition.h, the kernel
 * trace's and /proc's) counts the processes a scenario's load started as
 * the load's own, never as other processes (docs/kernel-trace.md): a
 * stress-ng worker, a fork load's children, an exec load's shell pipeline.
 * One thread at nice 19, off the measured CPUs, reads the events while the
 * run lasts. */
#ifndef HG_FORKS_H
#define HG_FORKS_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct hg_forks;

/* Starts listening; `measured` are the CPUs its thread keeps off when the
 * machine has others.  NULL only when out of memory; hg_forks_why() says
 * why it does not listen (not root, no connector). */
struct hg_forks *hg_forks_start(const cpu_set_t *measured);
bool hg_forks_active(const struct hg_forks *f);
const char *hg_forks_why(const struct hg_forks *f);
/* Stops listening (idempotent); the tree stays readable. */
void hg_forks_stop(struct hg_forks *f);
void hg_forks_free(struct hg_forks *f);   /* stops first; NULL is fine */
/* Events the kernel could not deliver (the socket's buffer overran). */
uint64_t hg_forks_lost(const struct hg_forks *f);

/* `roots` and every task forked from them or their descendants during the
 * run (tids and tgids), roots first, into *out (malloc'ed; the caller
 * frees it).  Returns the count, or -1 when out of memory.  Without the
 * connector, the roots alone. */
long hg_forks_descendants(const struct hg_forks *f, const pid_t *roots, size_t n_roots,
			  pid_t **out);

#endif
