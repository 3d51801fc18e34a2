/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The preemption model of the running kernel decided from the facts the
 * kernel gives about itself (docs/kernel-trace.md, "Host facts"): a pure
 * function, so that the order of the sources is tested without a kernel
 * (tests/unit/test_preempt_model.c); run/host.c gathers the facts.
 *
 * The build decides first: PREEMPT_RT is a build (uname -v says it, the
 * configuration says it, the RT patch set's /sys/kernel/realtime says it
 * when present); only then the dynamic mode of a PREEMPT_DYNAMIC kernel,
 * which is recorded in its own field, also on RT kernels whose dynamic
 * mode (full, lazy) is a choice on top of RT. */
#ifndef HG_PREEMPT_MODEL_H
#define HG_PREEMPT_MODEL_H

#include <stdbool.h>

/* What the kernel says about itself; NULL (or -1) for what could not be
 * read.  All strings are the text as read, first line only. */
struct hg_preempt_facts {
	const char *uname_version;   /* uname -v: "#1 SMP PREEMPT_RT Debian ..." */
	const char *realtime;        /* /sys/kernel/realtime ("1"), absent on mainline */
	const char *config_model;    /* the build's default model (CONFIG_PREEMPT_RT ->
					"rt", _LAZY, PREEMPT -> "full", _VOLUNTARY, _NONE) */
	const char *config_dynamic_default;  /* the model chosen besides RT (LAZY, PREEMPT,
						VOLUNTARY, NONE): a dynamic kernel's boot mode */
	int config_dynamic;          /* CONFIG_PREEMPT_DYNAMIC: 1 y, 0 not set, -1 unknown */
	const char *config_source;   /* the file the configuration came from */
	const char *debugfs;         /* sched/preempt: "none voluntary (full) lazy" */
	const char *debugfs_source;  /* where it was read */
	const char *cmdline_preempt; /* the value of preempt= on the command line */
	const char *klog_dynamic;    /* the last "Dynamic Preempt: X" of the kernel log */
};

/* The decision: `model` is none, voluntary, full, lazy, rt or unknown;
 * `dynamic` the mode a PREEMPT_DYNAMIC kernel is in (none, voluntary,
 * full, lazy, laziest), "" when the kernel has no dynamic mode or it could
 * not be read (dynamic_source says which).  Sources are static strings or
 * the facts' own source strings. */
struct hg_preempt_model {
	char model[16];
	const char *source;
	char dynamic[16];
	const char *dynamic_source;
	bool is_dynamic;             /* the kernel is PREEMPT_DYNAMIC */
};

void hg_preempt_decide(const struct hg_preempt_facts *f, struct hg_preempt_model *out);

/* The word in parentheses of a sched/preempt line ("none (full) lazy"
 * gives "full"); false when there is none. */
bool hg_preempt_debugfs_word(const char *line, char *out, unsigned size);

#endif
