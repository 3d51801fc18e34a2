/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Applying a thread's scheduling request in the thread itself: affinity,
 * policy and priority or nice, or a SCHED_DEADLINE reservation; then
 * reading back what the kernel granted.  Failures are messages, not
 * fatal: the caller decides (warning, or exit 4 with --strict).
 * docs/reservations.md explains the reservation path and its messages. */
#ifndef HG_SCHEDULING_H
#define HG_SCHEDULING_H

#include <sched.h>
#include <stdbool.h>
#include <stdint.h>

#include "plan/plan.h"

#define HG_SCHED_MAX_MSGS 4
#define HG_SCHED_MSG_LEN 504     /* < run.c's 512-byte warning buffer */

struct hg_sched_granted {
	enum hg_policy policy;
	int priority;            /* FIFO/RR priority, else 0 */
	int nice;
	bool reservation;        /* SCHED_DEADLINE granted */
	uint64_t runtime_ns, deadline_ns, period_ns;   /* read back; 0 unless reservation */
	bool reclaim;            /* soft reservation (SCHED_FLAG_RECLAIM) */
	cpu_set_t affinity;
};

struct hg_sched_report {
	struct hg_sched_granted granted;
	bool privilege_failed;   /* a privilege or kernel feature was refused
				    (EPERM, EBUSY, EINVAL, ...): --strict exits 4 */
	int n_msgs;
	char msgs[HG_SCHED_MAX_MSGS][HG_SCHED_MSG_LEN];
};

/* In the thread, in two steps with the thread's buffers allocated between
 * them (near its CPU, and not charged to a reservation's budget nor taken
 * at real-time priority): hg_sched_pin applies tp's affinity and resets r;
 * hg_sched_apply then applies the policy and priority or nice, or the
 * reservation (which the kernel judges against the affinity), and reads
 * back what was granted.  A refused reservation leaves the thread with the
 * policy it inherited (SCHED_OTHER, nice 0), and r says so. */
void hg_sched_pin(const struct hg_thread_plan *tp, struct hg_sched_report *r);
void hg_sched_apply(const struct hg_thread_plan *tp, struct hg_sched_report *r);
/* Reads the calling thread's policy, priority, nice, reservation, affinity. */
void hg_sched_read(struct hg_sched_granted *g);
/* Puts the calling thread at SCHED_FIFO prio. Returns 0 or -errno. */
int hg_sched_fifo_self(int prio);

#endif
