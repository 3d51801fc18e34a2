/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The scenario as libcyaml loads it: the document's structure, every leaf
 * kept as the string the user wrote (libcyaml 1.3 takes -5 into unsigned
 * fields and 1abc as 1, so hgrun parses every value itself, in scenario/resolve*.c).
 * The few keys whose value may take several shapes (priority, cpus,
 * sweep.grid) and the plugins' parameters (declared in their own tables,
 * plan/param.h) are left to scenario/resolve*.c, which reads them from the
 * YAML nodes. */
#ifndef HG_RAWSCENARIO_H
#define HG_RAWSCENARIO_H

#include <cyaml/cyaml.h>

#include "plan/plugins.h"
#include "scenario/diag.h"

struct hg_raw_trace {
	char *records, *gap, *mode, *series, *outlier_gap, *outlier_latency, *before, *after,
	     *late_wakeup,
	     *budget, *kernel;
};

struct hg_raw_reservation { char *budget, *period, *deadline, *mode; };

struct hg_raw_workload {
	char *type;
	/* the workload's parameters: decoded from the YAML nodes */
};

struct hg_raw_thread {
	char *name, *count, *start, *finish;
	struct hg_raw_reservation *reservation;
	struct hg_raw_workload *workload;
	/* cpus, priority, timer: decoded from the YAML nodes */
};

struct hg_raw_load {
	char *name, *type, *start, *stop, *optional;
	/* cpus, priority, the load's parameters: decoded from the YAML nodes */
};

struct hg_raw_expect { char *thread, *metric, *max, *min; };

struct hg_raw_sweep { char *repeat; /* grid: decoded from the YAML node */ };

struct hg_raw_scenario {
	char *hgrun, *name, *description, *duration, *lock_memory, *cpu_dma_latency;
	struct hg_raw_trace *trace;
	struct hg_raw_thread *defaults;
	struct hg_raw_thread *threads;
	unsigned threads_count;
	struct hg_raw_load *loads;
	unsigned loads_count;
	struct hg_raw_expect *expect;
	unsigned expect_count;
	struct hg_raw_sweep *sweep;
};

/* The libcyaml schema of a scenario; shape.c walks it too, so the keys a
 * scenario may hold are written down once.  Its workload and load keys
 * are every key one of `plugins`' workloads or loads declares, listed from
 * their tables when a plugin set is first given: one schema per process,
 * for the plugins it was last given (a process uses one set). */
const cyaml_schema_value_t *hg_raw_scenario_schema(const struct hg_plugins *plugins);

/* Loads a document that already passed the shape check.  Returns 0 or -1
 * with an error in d. */
int hg_raw_load(const char *text, size_t len, const struct hg_plugins *plugins,
		struct hg_raw_scenario **out, struct hg_diags *d);
void hg_raw_free(struct hg_raw_scenario *raw);

/* The keys of one part of the scenario format, as the schema above takes
 * them ("scenario", "trace", "thread", "reservation", "load", "expect",
 * "sweep"; a plugin's own keys are its parameter table's), in `out`
 * followed by NULL; returns how many.  For the man page hgrun-scenario(5)
 * and the shell completion of --set (cli/). */
size_t hg_scenario_keys(const char *part, const char **out, size_t max);

#endif
