/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The generic side of parameter tables (plan/param.h): memory, lookup,
 * ranges in words. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/units.h"
#include "plan/param.h"

void hg_param_error(struct hg_param_errors *e, const char *key, const char *fmt, ...)
{
	char msg[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	e->report(e, key, msg);
}

size_t hg_params_count(const struct hg_params *ps)
{
	size_t n = 0;
	while (ps && ps->table && ps->table[n].name)
		n++;
	return n;
}

const struct hg_param *hg_param_find(const struct hg_params *ps, const char *name)
{
	for (size_t i = 0; i < hg_params_count(ps); i++)
		if (strcmp(ps->table[i].name, name) == 0)
			return &ps->table[i];
	return NULL;
}

void *hg_params_alloc(const struct hg_params *ps)
{
	return calloc(1, ps && ps->size ? ps->size : 1);
}

static bool owns_string(const struct hg_param *p)
{
	return p->kind == HG_PARAM_STRING || p->kind == HG_PARAM_ENDPOINT;
}

void hg_args_free(struct hg_args *a)
{
	for (size_t i = 0; a->v && i < a->n; i++)
		free(a->v[i]);
	free(a->v);
	a->v = NULL;
	a->n = 0;
}

/* Replaces a's (shared) strings by copies of its own. */
static bool args_copy(struct hg_args *a)
{
	char **from = a->v;
	if (!from)
		return true;
	a->v = calloc(a->n + 1, sizeof(char *));
	bool ok = a->v != NULL;
	for (size_t i = 0; ok && i < a->n; i++)
		ok = (a->v[i] = strdup(from[i])) != NULL;
	if (!ok && a->v)
		hg_args_free(a);
	return ok;
}

void *hg_params_copy(const struct hg_params *ps, const void *values)
{
	void *copy = hg_params_alloc(ps);
	if (!copy || !values)
		return copy;
	memcpy(copy, values, ps && ps->size ? ps->size : 1);
	bool ok = true;
	for (size_t i = 0; i < hg_params_count(ps); i++) {
		const struct hg_param *p = &ps->table[i];
		if (owns_string(p)) {
			char **s = HG_PARAM_AT(copy, p, char *);
			if (*s && !(*s = strdup(*s)))
				ok = false;
		} else if (p->kind == HG_PARAM_ARGS) {
			ok &= args_copy(HG_PARAM_AT(copy, p, struct hg_args));
		} else if (p->kind == HG_PARAM_EXEC) {
			struct hg_exec *e = HG_PARAM_AT(copy, p, struct hg_exec);
			const uint64_t *from = e->values_ns;
			e->values_ns = NULL;
			if (e->n_values && (e->values_ns = malloc(e->n_values * sizeof(uint64_t))))
				memcpy(e->values_ns, from, e->n_values * sizeof(uint64_t));
			ok &= !e->n_values || e->values_ns;
		}
	}
	if (!ok) {
		hg_params_free(ps, copy);
		return NULL;
	}
	return copy;
}

void hg_params_free(const struct hg_params *ps, void *values)
{
	if (!values)
		return;
	for (size_t i = 0; i < hg_params_count(ps); i++) {
		const struct hg_param *p = &ps->table[i];
		if (owns_string(p))
			free(*HG_PARAM_AT(values, p, char *));
		else if (p->kind == HG_PARAM_EXEC)
			free(HG_PARAM_AT(values, p, struct hg_exec)->values_ns);
		else if (p->kind == HG_PARAM_ARGS)
			hg_args_free(HG_PARAM_AT(values, p, struct hg_args));
	}
	free(values);
}

uint64_t hg_params_u64(const struct hg_params *ps, const void *values, const char *name,
		       uint64_t fallback)
{
	const struct hg_param *p = hg_param_find(ps, name);
	if (!p || !values || (p->kind != HG_PARAM_DURATION && p->kind != HG_PARAM_SIZE &&
			      p->kind != HG_PARAM_UINT))
		return fallback;
	return *HG_PARAM_AT(values, p, const uint64_t);
}

const struct hg_exec *hg_params_exec(const struct hg_params *ps, const void *values,
				     const char *name)
{
	const struct hg_param *p = hg_param_find(ps, name);
	return p && values && p->kind == HG_PARAM_EXEC
		? HG_PARAM_AT(values, p, const struct hg_exec) : NULL;
}

const char *hg_param_kind_name(enum hg_param_kind kind)
{
	switch (kind) {
	case HG_PARAM_DURATION: return "duration";
	case HG_PARAM_SIZE: return "size";
	case HG_PARAM_UINT: return "integer";
	case HG_PARAM_ENUM: return "enum";
	case HG_PARAM_BOOL: return "bool";
	case HG_PARAM_STRING: return "string";
	case HG_PARAM_ENDPOINT: return "endpoint";
	case HG_PARAM_EXEC: return "exec";
	case HG_PARAM_ARGS: return "args";
	}
	return "?";
}

const char *hg_param_unit(enum hg_param_kind kind)
{
	switch (kind) {
	case HG_PARAM_DURATION:
	case HG_PARAM_EXEC:
		return "ns";
	case HG_PARAM_SIZE:
		return "bytes";
	default:
		return NULL;
	}
}

uint64_t hg_param_max(const struct hg_param *p)
{
	if (p->max)
		return p->max;
	return p->kind == HG_PARAM_DURATION ? HG_DURATION_MAX_NS : UINT64_MAX;
}

static const char *value_text(const struct hg_param *p, uint64_t v, char buf[32])
{
	if (p->kind == HG_PARAM_DURATION)
		return hg_format_duration(v, buf);
	if (p->kind == HG_PARAM_SIZE)
		return hg_format_size(v, buf);
	snprintf(buf, 32, "%llu", (unsigned long long)v);
	return buf;
}

const char *hg_param_range_text(const struct hg_param *p, char *buf, size_t size)
{
	char lo[32], hi[32];
	buf[0] = '\0';
	if (p->kind == HG_PARAM_STRING && p->min)
		snprintf(buf, size, "not empty");
	if (p->kind == HG_PARAM_ENDPOINT)
		snprintf(buf, size, "host:1..65535");
	if (p->kind != HG_PARAM_DURATION && p->kind != HG_PARAM_SIZE && p->kind != HG_PARAM_UINT)
		return buf;
	if (p->max)
		snprintf(buf, size, "%s..%s", value_text(p, p->min, lo), value_text(p, p->max, hi));
	else if (p->min == 1 && p->kind != HG_PARAM_UINT)
		snprintf(buf, size, "more than 0");
	else if (p->min)
		snprintf(buf, size, "at least %s", value_text(p, p->min, lo));
	return buf;
}

const char *hg_params_names(const struct hg_params *ps, char *buf, size_t size)
{
	size_t n = hg_params_count(ps), used = 0;
	if (!n)
		return "no parameters";
	buf[0] = '\0';
	for (size_t i = 0; i < n && used < size; i++)
		used += (size_t)snprintf(buf + used, size - used, "%s%s", i ? ", " : "",
					 ps->table[i].name);
	return buf;
}
