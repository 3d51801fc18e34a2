/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Parameters as data.  Every workload, timer and load declares the keys it
 * takes in one table of struct hg_param, in its own file, laid out over a
 * struct of its own (offsetof), as fio's engines declare `struct fio_option`.
 * Generic code does the rest from the table: scenario/resolve_params.c
 * parses, applies defaults and range-checks; plan/plan_json.c echoes the
 * resolved values; plan/param_json.c describes the table for `hgrun list`
 * (and through `hgrun list --json`, schemas/gen_scenario_schema.py).  Rules
 * across a plugin's own keys go in its `check` hook; rules across plugins
 * stay in scenario/check.c. */
#ifndef HG_PARAM_H
#define HG_PARAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum hg_exec_kind { HG_EXEC_FIXED, HG_EXEC_LIST, HG_EXEC_UNIFORM, HG_EXEC_NORMAL };

/* Per-job execution time of periodic workloads (an HG_PARAM_EXEC value). */
struct hg_exec {
	enum hg_exec_kind kind;
	uint64_t *values_ns;  /* FIXED: 1 value; LIST: n values, cycled */
	size_t n_values;
	uint64_t min_ns, max_ns;        /* UNIFORM: [min, max]; NORMAL: clamp */
	uint64_t mean_ns, stddev_ns;    /* NORMAL */
	uint64_t seed;                  /* UNIFORM/NORMAL: reproducible draws */
};

enum hg_param_kind {
	HG_PARAM_DURATION,  /* uint64_t, ns: 5ms, 1.5s */
	HG_PARAM_SIZE,      /* uint64_t, bytes: 64KiB */
	HG_PARAM_UINT,      /* uint64_t: 4 */
	HG_PARAM_ENUM,      /* unsigned: index into choices (any case in scenarios) */
	HG_PARAM_BOOL,      /* bool */
	HG_PARAM_STRING,    /* char *, owned by the plan */
	HG_PARAM_ENDPOINT,  /* char *, owned by the plan: host:port, port 1..65535 */
	HG_PARAM_EXEC,      /* struct hg_exec: a duration, a cycled list or a distribution */
	HG_PARAM_ARGS,      /* struct hg_args, owned by the plan: command-line arguments
			       from a map ({vm-bytes: 1G} -> --vm-bytes 1G) or a list */
};

/* HG_PARAM_ARGS: arguments for a program hgrun runs without a shell, in
 * order; never split or expanded.  At most HG_ARGS_MAX, each shorter than
 * HG_ARG_MAX bytes. */
struct hg_args {
	char **v;
	size_t n;
	bool map;       /* written as a map: v[i] "--key" came from options.key */
};

#define HG_ARGS_MAX 128
#define HG_ARG_MAX 4096

struct hg_param {
	const char *name;           /* the key, as written in scenarios */
	enum hg_param_kind kind;
	size_t offset;              /* of the value in the plugin's struct */
	/* DURATION, SIZE, UINT: the range (max 0: the kind's own limit);
	 * STRING: min is the shortest length. */
	uint64_t min, max;
	const char *min_why;        /* optional: why the minimum, for its error */
	const char *def;            /* the default as a scenario writes it; NULL: none */
	bool required;
	const char *const *choices; /* ENUM: the names, NULL-terminated */
	const char *help;           /* one line: what it does */
};

/* A plugin's parameters: the table (ended by an entry whose name is NULL)
 * and the size of the struct its offsets point into. */
struct hg_params {
	const struct hg_param *table;
	size_t size;
};

#define HG_PARAMS_END { .name = NULL }

/* Errors a plugin's check hook reports against one of its keys. */
struct hg_param_errors {
	void (*report)(struct hg_param_errors *e, const char *key, const char *message);
};
void hg_param_error(struct hg_param_errors *e, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

size_t hg_params_count(const struct hg_params *ps);
const struct hg_param *hg_param_find(const struct hg_params *ps, const char *name);

/* Resolved values: a zeroed struct of ps->size bytes; deep copy and free
 * (strings, exec lists).  Alloc and copy return NULL when out of memory. */
void *hg_params_alloc(const struct hg_params *ps);
void *hg_params_copy(const struct hg_params *ps, const void *values);
void hg_params_free(const struct hg_params *ps, void *values);
void hg_args_free(struct hg_args *a);

/* Typed access to one value, for the accessors of the keys many plugins
 * share (plan/keys.h: a load's `workers`, a workload's `period`). */
#define HG_PARAM_AT(values, p, type) ((type *)((char *)(values) + (p)->offset))
/* DURATION, SIZE or UINT `name`, or `fallback` when the plugin has none. */
uint64_t hg_params_u64(const struct hg_params *ps, const void *values, const char *name,
		       uint64_t fallback);
/* EXEC `name`, or NULL. */
const struct hg_exec *hg_params_exec(const struct hg_params *ps, const void *values,
				     const char *name);

/* "duration", "size", ... and the unit of the resolved value ("ns",
 * "bytes", or NULL when it has none). */
const char *hg_param_kind_name(enum hg_param_kind kind);
const char *hg_param_unit(enum hg_param_kind kind);
/* The largest value of a numeric kind when the table gives no max. */
uint64_t hg_param_max(const struct hg_param *p);
/* The range in words, as errors, `hgrun list` and docs/scenario.md show it:
 * "at least 10us", "1..1024", "" when unbounded. */
const char *hg_param_range_text(const struct hg_param *p, char *buf, size_t size);
/* "exec, period" (or "no parameters") */
const char *hg_params_names(const struct hg_params *ps, char *buf, size_t size);

#endif
