/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target: the unit parsers (runner/base/units.c), which every
 * duration and size of a scenario, --duration and the Hourglass translator
 * go through.  The input is one value.  Beyond not crashing, each parse
 * that succeeds must give the value the text means: checked against the
 * digits in long double (a product that wrapped 128 bits once validated
 * 83536564161765801843633184154.3d as 0.35 s), and a duration's exact
 * spelling must read back to the same ns.  Built with -DHG_FUZZ=ON
 * (clang); see docs/fuzzing.md. */
#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/units.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const struct { const char *suffix; long double scale; } units[] = {
	{ "ns", 1 }, { "us", 1e3L }, { "ms", 1e6L }, { "s", 1e9L }, { "m", 60e9L },
	{ "h", 3600e9L }, { "d", 86400e9L }, { "B", 1 }, { "KiB", 1024 },
	{ "MiB", 1048576 }, { "GiB", 1073741824.0L }, { "KB", 1e3L }, { "MB", 1e6L },
	{ "GB", 1e9L },
};

/* What "digits[.digits]UNIT" means, or -1 when the text is not of that
 * form with one of the units above (a case-insensitive unit the parser
 * accepts is then not checked). */
static long double meaning(const char *s)
{
	const char *p = s;
	long double v = 0, frac = 0.1L;
	if (!isdigit((unsigned char)*p))
		return -1;
	while (isdigit((unsigned char)*p))
		v = v * 10 + (*p++ - '0');
	if (*p == '.')
		for (p++; isdigit((unsigned char)*p); p++, frac /= 10)
			v += (*p - '0') * frac;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(p, units[i].suffix))
			return v * units[i].scale;
	return -1;
}

static void agrees(const char *s, uint64_t got)
{
	long double want = meaning(s);
	if (want >= 0 && fabsl(want - (long double)got) > 1 + want * 1e-15L)
		abort();        /* the value parsed is not the value written */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 256)
		return 0;
	char s[257], err[HG_ERRLEN], back[32];
	memcpy(s, data, size);
	s[size] = '\0';
	uint64_t v;
	bool rounded;
	if (hg_parse_duration(s, &v, err) == 0) {
		agrees(s, v);
		uint64_t again;
		if (v > HG_DURATION_MAX_NS || hg_parse_duration(hg_format_duration(v, back), &again,
								 err) != 0 || again != v)
			abort();
	}
	if (hg_parse_duration_nearest(s, &v, &rounded, err) == 0) {
		if (!rounded)
			agrees(s, v);
		if ((rounded && v == 0) || v > HG_DURATION_MAX_NS)
			abort();        /* rounding never gives 0 ns nor passes the cap */
	}
	if (hg_parse_size(s, &v, err) == 0)
		agrees(s, v);
	int64_t i;
	double d;
	bool b;
	(void)hg_parse_uint(s, 0, UINT64_MAX, &v, err);
	(void)hg_parse_int(s, INT64_MIN, INT64_MAX, &i, err);
	(void)hg_parse_number(s, &d, err);
	(void)hg_parse_bool(s, &b, err);
	return 0;
}
