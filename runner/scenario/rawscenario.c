/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libcyaml schema of the scenario format, version 1. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "plan/plugins.h"
#include "scenario/rawscenario.h"

#define OPT CYAML_FLAG_OPTIONAL
#define STR(key, flags, type, member) \
	CYAML_FIELD_STRING_PTR(key, flags, type, member, 0, CYAML_UNLIMITED)

static const cyaml_schema_field_t trace_fields[] = {
	STR("records", OPT, struct hg_raw_trace, records),
	STR("gap", OPT, struct hg_raw_trace, gap),
	STR("mode", OPT, struct hg_raw_trace, mode),
	STR("series", OPT, struct hg_raw_trace, series),
	STR("outlier_gap", OPT, struct hg_raw_trace, outlier_gap),
	STR("outlier_latency", OPT, struct hg_raw_trace, outlier_latency),
	STR("before", OPT, struct hg_raw_trace, before),
	STR("after", OPT, struct hg_raw_trace, after),
	STR("budget", OPT, struct hg_raw_trace, budget),
	STR("kernel", OPT, struct hg_raw_trace, kernel),
	STR("late_wakeup", OPT, struct hg_raw_trace, late_wakeup),
	CYAML_FIELD_END
};

static const cyaml_schema_field_t reservation_fields[] = {
	STR("budget", 0, struct hg_raw_reservation, budget),
	STR("period", 0, struct hg_raw_reservation, period),
	STR("deadline", OPT, struct hg_raw_reservation, deadline),
	STR("mode", OPT, struct hg_raw_reservation, mode),
	CYAML_FIELD_END
};

/* The keys before the plugins' parameters; the rest is filled in by
 * list_params() (room for 64 parameter names per family). */
#define PARAM_ROOM 64
static cyaml_schema_field_t workload_fields[1 + PARAM_ROOM + 1] = {
	STR("type", OPT, struct hg_raw_workload, type),
};

/* Used for threads[] and for defaults: (where `name` is refused by scenario/resolve.c). */
static const cyaml_schema_field_t thread_fields[] = {
	STR("name", OPT, struct hg_raw_thread, name),
	STR("count", OPT, struct hg_raw_thread, count),
	CYAML_FIELD_IGNORE("cpus", OPT),
	CYAML_FIELD_IGNORE("priority", OPT),
	CYAML_FIELD_MAPPING_PTR("reservation", OPT, struct hg_raw_thread, reservation,
				reservation_fields),
	CYAML_FIELD_IGNORE("timer", OPT),
	STR("start", OPT, struct hg_raw_thread, start),
	STR("finish", OPT, struct hg_raw_thread, finish),
	CYAML_FIELD_MAPPING_PTR("workload", OPT, struct hg_raw_thread, workload,
				workload_fields),
	CYAML_FIELD_END
};

static const cyaml_schema_value_t thread_entry = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, struct hg_raw_thread, thread_fields),
};

#define LOAD_KEYS 7
static cyaml_schema_field_t load_fields[LOAD_KEYS + PARAM_ROOM + 1] = {
	STR("name", 0, struct hg_raw_load, name),
	STR("type", 0, struct hg_raw_load, type),
	STR("start", OPT, struct hg_raw_load, start),
	STR("stop", OPT, struct hg_raw_load, stop),
	STR("optional", OPT, struct hg_raw_load, optional),
	CYAML_FIELD_IGNORE("priority", OPT),
	CYAML_FIELD_IGNORE("cpus", OPT),
};

static const cyaml_schema_value_t load_entry = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, struct hg_raw_load, load_fields),
};

static const cyaml_schema_field_t expect_fields[] = {
	STR("thread", 0, struct hg_raw_expect, thread),
	STR("metric", 0, struct hg_raw_expect, metric),
	STR("max", OPT, struct hg_raw_expect, max),
	STR("min", OPT, struct hg_raw_expect, min),
	CYAML_FIELD_END
};

static const cyaml_schema_value_t expect_entry = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, struct hg_raw_expect, expect_fields),
};

static const cyaml_schema_field_t sweep_fields[] = {
	CYAML_FIELD_IGNORE("grid", 0),
	STR("repeat", OPT, struct hg_raw_sweep, repeat),
	CYAML_FIELD_END
};

static const cyaml_schema_field_t scenario_fields[] = {
	STR("hgrun", 0, struct hg_raw_scenario, hgrun),
	STR("name", 0, struct hg_raw_scenario, name),
	STR("description", OPT, struct hg_raw_scenario, description),
	STR("duration", 0, struct hg_raw_scenario, duration),
	CYAML_FIELD_MAPPING_PTR("trace", OPT, struct hg_raw_scenario, trace, trace_fields),
	STR("lock_memory", OPT, struct hg_raw_scenario, lock_memory),
	STR("cpu_dma_latency", OPT, struct hg_raw_scenario, cpu_dma_latency),
	CYAML_FIELD_MAPPING_PTR("defaults", OPT, struct hg_raw_scenario, defaults,
				thread_fields),
	CYAML_FIELD_SEQUENCE("threads", CYAML_FLAG_POINTER, struct hg_raw_scenario,
			     threads, &thread_entry, 1, CYAML_UNLIMITED),
	CYAML_FIELD_SEQUENCE("loads", CYAML_FLAG_POINTER | OPT, struct hg_raw_scenario,
			     loads, &load_entry, 0, CYAML_UNLIMITED),
	CYAML_FIELD_SEQUENCE("expect", CYAML_FLAG_POINTER | OPT, struct hg_raw_scenario,
			     expect, &expect_entry, 0, CYAML_UNLIMITED),
	CYAML_FIELD_MAPPING_PTR("sweep", OPT, struct hg_raw_scenario, sweep, sweep_fields),
	CYAML_FIELD_END
};

static const cyaml_schema_value_t scenario_schema = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_POINTER, struct hg_raw_scenario, scenario_fields),
};

/* Appends each parameter name of `ps` not yet in fields (from `used` on),
 * as a key libcyaml skips: scenario/resolve_params.c reads its node. */
static size_t add_params(cyaml_schema_field_t *fields, size_t used, size_t room,
			 const struct hg_params *ps)
{
	for (size_t i = 0; i < hg_params_count(ps); i++) {
		bool seen = false;
		for (size_t j = 0; j < used && !seen; j++)
			seen = strcmp(fields[j].key, ps->table[i].name) == 0;
		if (!seen && used < room)
			fields[used++] = (cyaml_schema_field_t)CYAML_FIELD_IGNORE(ps->table[i].name, OPT);
	}
	return used;
}

/* The keys of p's workloads and loads after the fixed ones (the rest of
 * each array stays zero: CYAML_FIELD_END). */
static void list_params(const struct hg_plugins *p)
{
	size_t n = 1;
	memset(workload_fields + n, 0, sizeof(workload_fields) - n * sizeof(workload_fields[0]));
	for (size_t i = 0; i < p->n_workloads; i++)
		n = add_params(workload_fields, n, 1 + PARAM_ROOM, &p->workloads[i]->params);
	n = LOAD_KEYS;
	memset(load_fields + n, 0, sizeof(load_fields) - n * sizeof(load_fields[0]));
	for (size_t i = 0; i < p->n_loads; i++)
		n = add_params(load_fields, n, LOAD_KEYS + PARAM_ROOM, &p->loads[i]->params);
}

const cyaml_schema_value_t *hg_raw_scenario_schema(const struct hg_plugins *p)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	static const struct hg_plugins *listed;
	pthread_mutex_lock(&lock);
	if (listed != p) {
		list_params(p);
		listed = p;
	}
	pthread_mutex_unlock(&lock);
	return &scenario_schema;
}

size_t hg_scenario_keys(const char *part, const char **out, size_t max)
{
	static const struct {
		const char *part;
		const cyaml_schema_field_t *fields;
		size_t n;                       /* 0: up to CYAML_FIELD_END */
	} parts[] = {
		{ "scenario", scenario_fields, 0 }, { "trace", trace_fields, 0 },
		{ "thread", thread_fields, 0 }, { "reservation", reservation_fields, 0 },
		{ "load", load_fields, LOAD_KEYS }, { "expect", expect_fields, 0 },
		{ "sweep", sweep_fields, 0 },
	};
	size_t n = 0;
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		if (strcmp(part, parts[i].part) != 0)
			continue;
		for (size_t k = 0; parts[i].fields[k].key && (!parts[i].n || k < parts[i].n) &&
		     n + 1 < max; k++)
			out[n++] = parts[i].fields[k].key;
	}
	if (max)
		out[n] = NULL;
	return n;
}

/* libcyaml's log goes into the first error instead of stderr. */
struct log_capture {
	char text[256];
};
static _Thread_local struct log_capture *capture;

static void log_to_capture(cyaml_log_t level, void *ctx, const char *fmt, va_list args)
{
	(void)ctx;
	if (level < CYAML_LOG_ERROR || !capture || capture->text[0])
		return;
	vsnprintf(capture->text, sizeof(capture->text), fmt, args);
	capture->text[strcspn(capture->text, "\n")] = '\0';
}

static const cyaml_config_t cyaml_config = {
	.log_fn = log_to_capture,
	.mem_fn = cyaml_mem,
	.log_level = CYAML_LOG_ERROR,
	.flags = CYAML_CFG_DEFAULT,
};

int hg_raw_load(const char *text, size_t len, const struct hg_plugins *plugins,
		struct hg_raw_scenario **out, struct hg_diags *d)
{
	struct log_capture log = { "" };
	capture = &log;
	cyaml_err_t err = cyaml_load_data((const uint8_t *)text, len, &cyaml_config,
					  hg_raw_scenario_schema(plugins), (cyaml_data_t **)out, NULL);
	capture = NULL;
	if (err == CYAML_OK)
		return 0;
	hg_diag_add(d, 0, 0, NULL, "libcyaml: %s%s%s", cyaml_strerror(err),
		    log.text[0] ? ": " : "", log.text);
	return -1;
}

void hg_raw_free(struct hg_raw_scenario *raw)
{
	if (raw)
		cyaml_free(&cyaml_config, &scenario_schema, raw, 0);
}
