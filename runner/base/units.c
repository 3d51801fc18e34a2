/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Units are parsed from tables of suffixes (as wrk does), exactly: the
 * value is held as an integer count of the smallest unit, never a double. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/units.h"

struct unit {
	const char *suffix;
	uint64_t scale;
};

static const struct unit duration_units[] = {
	{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 },
	{ "s", 1000000000ull }, { "m", 60000000000ull }, { "h", 3600000000000ull },
	{ "d", 86400000000000ull }, { NULL, 0 },
};
#define DURATION_UNITS "ns, us, ms, s, m, h, d"

static const struct unit size_units[] = {
	{ "B", 1 }, { "KiB", 1024 }, { "MiB", 1024 * 1024 },
	{ "GiB", 1024ull * 1024 * 1024 }, { "KB", 1000 }, { "MB", 1000000 },
	{ "GB", 1000000000ull }, { NULL, 0 },
};
#define SIZE_UNITS "B, KiB, MiB, GiB, KB, MB, GB"

/* Splits "12.5ms" into integer digits, fraction digits and suffix. */
struct number_text {
	const char *int_start, *frac_start, *suffix;
	size_t int_len, frac_len;
};

static int split_number(const char *s, struct number_text *t)
{
	const char *p = s;
	t->int_start = p;
	while (isdigit((unsigned char)*p))
		p++;
	t->int_len = (size_t)(p - t->int_start);
	t->frac_start = p;
	t->frac_len = 0;
	if (*p == '.') {
		p++;
		t->frac_start = p;
		while (isdigit((unsigned char)*p))
			p++;
		t->frac_len = (size_t)(p - t->frac_start);
		if (t->frac_len == 0)
			return -1;
	}
	t->suffix = p;
	return t->int_len ? 0 : -1;
}

/* int.frac as the fraction num/den (den a power of ten), or -1 past 30 digits. */
static int as_fraction(const struct number_text *t, unsigned __int128 *num,
		       unsigned __int128 *den)
{
	*num = 0;
	*den = 1;
	if (t->int_len + t->frac_len > 30)
		return -1;
	for (size_t i = 0; i < t->int_len; i++)
		*num = *num * 10 + (unsigned)(t->int_start[i] - '0');
	for (size_t i = 0; i < t->frac_len; i++) {
		*num = *num * 10 + (unsigned)(t->frac_start[i] - '0');
		*den *= 10;
	}
	return 0;
}

/* num * scale, or false when it does not fit 128 bits (30 digits times a
 * day in ns does not: 10^30 * 8.64e13 > 2^128; wrapped, such a value was
 * once taken for a small one). */
static bool times(unsigned __int128 *num, uint64_t scale)
{
	if (scale && *num > ~(unsigned __int128)0 / scale)
		return false;
	*num *= scale;
	return true;
}

/* value = int.frac * scale, exactly, or -1 (fraction too fine / overflow). */
static int scale_exact(const struct number_text *t, uint64_t scale, uint64_t *out,
		       bool *too_fine)
{
	unsigned __int128 num, den;
	*too_fine = false;
	if (as_fraction(t, &num, &den) != 0 || !times(&num, scale))
		return -1;
	if (num % den != 0) {
		*too_fine = true;
		return -1;
	}
	num /= den;
	if (num > UINT64_MAX)
		return -1;
	*out = (uint64_t)num;
	return 0;
}

/* floor(int.frac * scale), for values finer than the smallest unit. */
static int scale_floor(const struct number_text *t, uint64_t scale, uint64_t *out)
{
	unsigned __int128 num, den;
	if (as_fraction(t, &num, &den) != 0 || !times(&num, scale))
		return -1;
	num /= den;
	if (num >= UINT64_MAX)
		return -1;
	*out = (uint64_t)num;
	return 0;
}

static const struct unit *find_unit(const struct unit *units, const char *suffix,
				    bool case_insensitive)
{
	for (const struct unit *u = units; u->suffix; u++)
		if (strcmp(u->suffix, suffix) == 0)
			return u;
	if (case_insensitive)
		for (const struct unit *u = units; u->suffix; u++)
			if (strcasecmp(u->suffix, suffix) == 0)
				return u;
	return NULL;
}

static int parse_with_units(const char *s, const struct unit *units,
			    const char *what, const char *example,
			    const char *unit_list, const char *smallest,
			    uint64_t *out, char err[HG_ERRLEN])
{
	struct number_text t;
	if (!s || !*s) {
		snprintf(err, HG_ERRLEN, "expected %s such as %s, got an empty value",
			 what, example);
		return -1;
	}
	if (*s == '-') {
		snprintf(err, HG_ERRLEN, "%s cannot be negative (got '%s')", what, s);
		return -1;
	}
	if (split_number(s, &t) != 0) {
		snprintf(err, HG_ERRLEN, "expected %s such as %s (units: %s), got '%s'",
			 what, example, unit_list, s);
		return -1;
	}
	if (*t.suffix == '\0') {
		bool dur = units == duration_units;
		snprintf(err, HG_ERRLEN, "'%s' needs a unit (%s): write e.g. %s%s or %s%s", s,
			 unit_list, s, dur ? "ms" : "B", s, dur ? "s" : "KiB");
		return -1;
	}
	const char *suffix = t.suffix;
	if (*suffix == ' ') {
		snprintf(err, HG_ERRLEN, "no space between number and unit: write '%.*s%s'",
			 (int)(suffix - s), s, suffix + strspn(suffix, " "));
		return -1;
	}
	const struct unit *u = find_unit(units, suffix, false);
	if (!u) {
		const struct unit *ci = find_unit(units, suffix, true);
		if (ci)
			snprintf(err, HG_ERRLEN, "unknown unit '%s' in '%s': did you mean '%s'?",
				 suffix, s, ci->suffix);
		else
			snprintf(err, HG_ERRLEN, "unknown unit '%s' in '%s' (units: %s)",
				 suffix, s, unit_list);
		return -1;
	}
	bool too_fine;
	if (scale_exact(&t, u->scale, out, &too_fine) != 0) {
		if (too_fine) {
			/* Name the two exact values around it (docs/scenario.md, Values). */
			uint64_t below = 0;
			if (scale_floor(&t, u->scale, &below) == 0)
				snprintf(err, HG_ERRLEN, "'%s' is finer than 1 %s: write %llu%s or "
					 "%llu%s, the exact values either side", s, smallest,
					 (unsigned long long)below, units[0].suffix,
					 (unsigned long long)below + 1, units[0].suffix);
			else
				snprintf(err, HG_ERRLEN, "'%s' is finer than 1 %s", s, smallest);
		} else
			snprintf(err, HG_ERRLEN, "'%s' is too large", s);
		return -1;
	}
	return 0;
}

int hg_parse_duration(const char *s, uint64_t *ns, char err[HG_ERRLEN])
{
	if (parse_with_units(s, duration_units, "a duration", "5ms", DURATION_UNITS, "ns", ns,
			     err) != 0)
		return -1;
	if (*ns > HG_DURATION_MAX_NS) {
		snprintf(err, HG_ERRLEN, "'%s' is longer than 30 days, the longest duration hgrun "
			 "takes", s);
		return -1;
	}
	return 0;
}

int hg_parse_duration_nearest(const char *s, uint64_t *ns, bool *rounded,
			      char err[HG_ERRLEN])
{
	*rounded = false;
	if (hg_parse_duration(s, ns, err) == 0)
		return 0;
	struct number_text t;
	const struct unit *u;
	if (split_number(s, &t) != 0 || !(u = find_unit(duration_units, t.suffix, false)))
		return -1;
	bool too_fine;
	uint64_t below;
	if (scale_exact(&t, u->scale, ns, &too_fine) == 0 || !too_fine ||
	    scale_floor(&t, u->scale, &below) != 0)
		return -1;
	/* Nearest, ties up: the remainder is compared at the input's precision. */
	unsigned __int128 num = 0, den = 1;
	for (size_t i = 0; i < t.int_len; i++)
		num = num * 10 + (unsigned)(t.int_start[i] - '0');
	for (size_t i = 0; i < t.frac_len; i++) {
		num = num * 10 + (unsigned)(t.frac_start[i] - '0');
		den *= 10;
	}
	if (!times(&num, u->scale))
		return -1;
	unsigned __int128 rem = num % den;
	*ns = below + (2 * rem >= den ? 1 : 0);
	*rounded = true;
	if (*ns == 0 || *ns > HG_DURATION_MAX_NS) {
		snprintf(err, HG_ERRLEN, "'%s' rounds to %lluns, outside 1ns..30d", s,
			 (unsigned long long)*ns);
		return -1;
	}
	return 0;
}

int hg_parse_size(const char *s, uint64_t *bytes, char err[HG_ERRLEN])
{
	return parse_with_units(s, size_units, "a size", "64KiB",
				SIZE_UNITS, "byte", bytes, err);
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

int hg_parse_int(const char *s, int64_t min, int64_t max, int64_t *out,
		 char err[HG_ERRLEN])
{
	const char *digits = (s && (*s == '-' || *s == '+')) ? s + 1 : s;
	if (!s || !all_digits(digits)) {
		snprintf(err, HG_ERRLEN, "expected an integer in %lld..%lld, got '%s'",
			 (long long)min, (long long)max, s ? s : "");
		return -1;
	}
	errno = 0;
	long long v = strtoll(s, NULL, 10);
	if (errno == ERANGE || v < min || v > max) {
		snprintf(err, HG_ERRLEN, "must be in %lld..%lld (got %s)",
			 (long long)min, (long long)max, s);
		return -1;
	}
	*out = v;
	return 0;
}

int hg_parse_uint(const char *s, uint64_t min, uint64_t max, uint64_t *out,
		  char err[HG_ERRLEN])
{
	if (s && *s == '-' && all_digits(s + 1)) {
		snprintf(err, HG_ERRLEN, "cannot be negative (got %s; must be in %llu..%llu)",
			 s, (unsigned long long)min, (unsigned long long)max);
		return -1;
	}
	if (!s || !all_digits(s)) {
		snprintf(err, HG_ERRLEN, "expected an integer in %llu..%llu, got '%s'",
			 (unsigned long long)min, (unsigned long long)max, s ? s : "");
		return -1;
	}
	errno = 0;
	unsigned long long v = strtoull(s, NULL, 10);
	if (errno == ERANGE || v < min || v > max) {
		snprintf(err, HG_ERRLEN, "must be in %llu..%llu (got %s)",
			 (unsigned long long)min, (unsigned long long)max, s);
		return -1;
	}
	*out = v;
	return 0;
}

int hg_parse_bool(const char *s, bool *out, char err[HG_ERRLEN])
{
	if (s && strcasecmp(s, "true") == 0) {
		*out = true;
		return 0;
	}
	if (s && strcasecmp(s, "false") == 0) {
		*out = false;
		return 0;
	}
	snprintf(err, HG_ERRLEN, "expected true or false, got '%s'", s ? s : "");
	return -1;
}

int hg_parse_number(const char *s, double *out, char err[HG_ERRLEN])
{
	struct number_text t;
	const char *body = (s && *s == '-') ? s + 1 : s;
	if (!s || split_number(body, &t) != 0 || *t.suffix) {
		snprintf(err, HG_ERRLEN, "expected a number such as 0.01 or 100, got '%s'",
			 s ? s : "");
		return -1;
	}
	double v = strtod(s, NULL);
	if (!isfinite(v)) {
		snprintf(err, HG_ERRLEN, "'%s' is too large", s);
		return -1;
	}
	*out = v;
	return 0;
}

static const char *format_exact(uint64_t v, const struct unit *units, size_t n_units,
				char buf[32])
{
	/* Largest unit that leaves at most 3 decimals and an exact value. */
	for (size_t i = n_units; i-- > 0;) {
		uint64_t scale = units[i].scale;
		if (v < scale && v != 0)
			continue;
		if (v % scale == 0) {
			snprintf(buf, 32, "%llu%s", (unsigned long long)(v / scale),
				 units[i].suffix);
			return buf;
		}
		if (scale >= 1000 && (v * 1000) / 1000 == v && (v % (scale / 1000)) == 0) {
			uint64_t milli = v / (scale / 1000);
			char frac[8];
			snprintf(frac, sizeof(frac), "%03llu", (unsigned long long)(milli % 1000));
			for (int k = 2; k > 0 && frac[k] == '0'; k--)
				frac[k] = '\0';
			snprintf(buf, 32, "%llu.%s%s", (unsigned long long)(milli / 1000),
				 frac, units[i].suffix);
			return buf;
		}
	}
	snprintf(buf, 32, "%llu%s", (unsigned long long)v, units[0].suffix);
	return buf;
}

const char *hg_format_duration(uint64_t ns, char buf[32])
{
	return format_exact(ns, duration_units, 4 /* ns..s: "m" reads badly */, buf);
}

const char *hg_format_size(uint64_t bytes, char buf[32])
{
	return format_exact(bytes, size_units, 4 /* B..GiB */, buf);
}

const char *hg_format_ns_approx(double ns, char buf[32])
{
	static const struct { double scale; const char *unit; } u[] = {
		{ 1e9, "s" }, { 1e6, "ms" }, { 1e3, "us" }, { 1, "ns" },
	};
	size_t i = 0;
	while (i + 1 < sizeof(u) / sizeof(u[0]) && ns < u[i].scale * 0.9995)
		i++;
	double v = ns / u[i].scale;
	snprintf(buf, 32, v >= 99.95 || i == 3 ? "%.0f %s" : v >= 9.995 ? "%.1f %s" : "%.2f %s", v,
		 u[i].unit);
	return buf;
}

const char *hg_format_size_approx(uint64_t bytes, char buf[32])
{
	static const char *const unit[] = { "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	if (bytes < 1024) {
		snprintf(buf, 32, "%llu byte%s", (unsigned long long)bytes, bytes == 1 ? "" : "s");
		return buf;
	}
	double v = (double)bytes / 1024;
	int u = 0;
	while (v >= 1023.95 && u < 5) {
		v /= 1024;
		u++;
	}
	int len = snprintf(buf, 32, "%.1f", v);
	if (len > 2 && strcmp(buf + len - 2, ".0") == 0)
		buf[len - 2] = '\0';
	snprintf(buf + strlen(buf), 32 - strlen(buf), " %s", unit[u]);
	return buf;
}
