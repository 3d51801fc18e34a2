/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Table-driven tests of strict unit parsing (runner/base/units.c). */
#include <stdio.h>
#include <string.h>

#include "unit.h"
#include "base/cpuset.h"
#include "base/names.h"
#include "base/units.h"


struct dcase { const char *in; int ok; uint64_t want; const char *msg_part; };

/* Translating Hourglass command lines: the nearest ns, ties up, said. */
static void test_durations_nearest(void)
{
	static const struct { const char *in; uint64_t want; bool rounded; } cases[] = {
		{ "976.5625us", 976563, true }, { "976.5624us", 976562, true },
		{ "1.0000004us", 1000, true }, { "5.3ms", 5300000, false },
		{ "0.5ns", 1, true },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t v = 0;
		bool rounded = false;
		char err[HG_ERRLEN] = "";
		int rc = hg_parse_duration_nearest(cases[i].in, &v, &rounded, err);
		CHECK(rc == 0 && v == cases[i].want && rounded == cases[i].rounded,
		      "nearest '%s': rc %d, %llu (rounded %d), want %llu (%s)", cases[i].in, rc,
		      (unsigned long long)v, rounded, (unsigned long long)cases[i].want, err);
	}
	uint64_t v;
	bool rounded;
	char err[HG_ERRLEN] = "";
	CHECK(hg_parse_duration_nearest("0.4ns", &v, &rounded, err) != 0 &&
	      strstr(err, "rounds to 0ns"), "nearest '0.4ns' refused: '%s'", err);
	CHECK(hg_parse_duration_nearest("83536564161765801843633184154.3d", &v, &rounded, err) != 0,
	      "nearest: a value past 128 bits was taken as %llu", (unsigned long long)v);
	CHECK(hg_parse_duration_nearest("5", &v, &rounded, err) != 0 &&
	      strstr(err, "needs a unit"), "nearest '5' refused: '%s'", err);
}

static void test_durations(void)
{
	static const struct dcase cases[] = {
		{ "4ms", 1, 4000000, NULL },
		{ "87.0us", 1, 87000, NULL },
		{ "1.5s", 1, 1500000000, NULL },
		{ "3m", 1, 180000000000ull, NULL },
		{ "0.9ms", 1, 900000, NULL },
		{ "1ns", 1, 1, NULL },
		{ "0s", 1, 0, NULL },
		{ "5.3ms", 1, 5300000, NULL },
		{ "5", 0, 0, "needs a unit" },
		{ "-5ms", 0, 0, "negative" },
		{ "1abc", 0, 0, "unknown unit 'abc'" },
		{ "1e6ms", 0, 0, "unknown unit" },
		{ "4Ms", 0, 0, "did you mean 'ms'" },
		{ "4 ms", 0, 0, "no space" },
		{ "0.5ns", 0, 0, "finer than 1 ns: write 0ns or 1ns" },
		{ "976.5625us", 0, 0, "write 976562ns or 976563ns" },
		{ "", 0, 0, "empty" },
		{ "ms", 0, 0, "expected a duration" },
		{ ".5ms", 0, 0, "expected a duration" },
		{ "5.ms", 0, 0, "expected a duration" },
		{ "99999999999999999999s", 0, 0, "too large" },
		{ "300000000000s", 0, 0, "too large" },
		/* 30 digits times a unit overflow 128 bits: once wrapped to 0.35 s */
		{ "83536564161765801843633184154.3d", 0, 0, "too large" },
		{ "999999999999999999999999999999d", 0, 0, "too large" },
		{ "9999999999999999999999999999.99h", 0, 0, "too large" },
		{ "30.0001m", 1, 1800006000000ull, NULL },
		{ "43201m", 0, 0, "longer than 30 days" },
		{ "43200m", 1, 2592000000000000ull, NULL },
		{ "24h", 1, 86400000000000ull, NULL },
		{ "1.5h", 1, 5400000000000ull, NULL },
		{ "2d", 1, 172800000000000ull, NULL },
		{ "0.5d", 1, 43200000000000ull, NULL },
		{ "30d", 1, 2592000000000000ull, NULL },
		{ "31d", 0, 0, "longer than 30 days" },
		{ "721h", 0, 0, "longer than 30 days" },
		{ "4H", 0, 0, "did you mean 'h'" },
		{ "2D", 0, 0, "did you mean 'd'" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct dcase *c = &cases[i];
		uint64_t v = 0;
		char err[HG_ERRLEN] = "";
		int rc = hg_parse_duration(c->in, &v, err);
		CHECK((rc == 0) == c->ok, "duration '%s': rc %d (%s)", c->in, rc, err);
		if (c->ok)
			CHECK(v == c->want, "duration '%s' = %llu, want %llu", c->in,
			      (unsigned long long)v, (unsigned long long)c->want);
		else
			CHECK(strstr(err, c->msg_part) != NULL, "duration '%s': message '%s' lacks '%s'",
			      c->in, err, c->msg_part);
	}
}

static void test_sizes(void)
{
	static const struct dcase cases[] = {
		{ "64KiB", 1, 65536, NULL }, { "1MiB", 1, 1048576, NULL }, { "1.5KiB", 1, 1536, NULL },
		{ "128MB", 1, 128000000, NULL }, { "4096B", 1, 4096, NULL }, { "1GiB", 1, 1073741824, NULL },
		{ "4096", 0, 0, "needs a unit" }, { "4kib", 0, 0, "did you mean 'KiB'" },
		{ "-1KiB", 0, 0, "negative" }, { "0.5B", 0, 0, "finer than 1 byte" },
		{ "999999999999999999999999999999GiB", 0, 0, "too large" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct dcase *c = &cases[i];
		uint64_t v = 0;
		char err[HG_ERRLEN] = "";
		int rc = hg_parse_size(c->in, &v, err);
		CHECK((rc == 0) == c->ok, "size '%s': rc %d (%s)", c->in, rc, err);
		if (c->ok)
			CHECK(v == c->want, "size '%s' = %llu", c->in, (unsigned long long)v);
		else
			CHECK(strstr(err, c->msg_part) != NULL, "size '%s': '%s' lacks '%s'", c->in, err,
			      c->msg_part);
	}
}

static void test_integers(void)
{
	struct { const char *in; uint64_t min, max; int ok; uint64_t want; } u[] = {
		{ "5", 1, 10, 1, 5 }, { "0", 1, 10, 0, 0 }, { "11", 1, 10, 0, 0 }, { "-5", 0, 10, 0, 0 },
		{ "1e6", 0, 10000000, 0, 0 }, { "0x10", 0, 100, 0, 0 }, { "1.0", 0, 10, 0, 0 },
		{ "", 0, 10, 0, 0 }, { "+3", 0, 10, 0, 0 }, { "18446744073709551616", 0, UINT64_MAX, 0, 0 },
	};
	for (size_t i = 0; i < sizeof(u) / sizeof(u[0]); i++) {
		uint64_t v = 0;
		char err[HG_ERRLEN];
		int rc = hg_parse_uint(u[i].in, u[i].min, u[i].max, &v, err);
		CHECK((rc == 0) == u[i].ok, "uint '%s' rc %d", u[i].in, rc);
		if (u[i].ok)
			CHECK(v == u[i].want, "uint '%s' = %llu", u[i].in, (unsigned long long)v);
	}
	int64_t s;
	char err[HG_ERRLEN];
	CHECK(hg_parse_int("-20", -20, 19, &s, err) == 0 && s == -20, "int -20");
	CHECK(hg_parse_int("20", -20, 19, &s, err) != 0, "int 20 out of range");
	CHECK(hg_parse_int("-", -20, 19, &s, err) != 0, "int '-'");
	bool b;
	CHECK(hg_parse_bool("True", &b, err) == 0 && b, "bool True");
	CHECK(hg_parse_bool("false", &b, err) == 0 && !b, "bool false");
	CHECK(hg_parse_bool("yes", &b, err) != 0, "bool yes refused");
	double d;
	CHECK(hg_parse_number("0.01", &d, err) == 0 && d == 0.01, "number 0.01");
	CHECK(hg_parse_number("1e3", &d, err) != 0, "number 1e3 refused");
	CHECK(hg_parse_number("nan", &d, err) != 0, "number nan refused");
	CHECK(hg_parse_number("-2", &d, err) == 0 && d == -2, "number -2");
}

static void test_format(void)
{
	struct { uint64_t ns; const char *want; } c[] = {
		{ 4000000, "4ms" }, { 1500000000, "1.5s" }, { 87000, "87us" }, { 5300000, "5.3ms" },
		{ 1, "1ns" }, { 0, "0s" }, { 1234567, "1234.567us" }, { 1234, "1.234us" },
	};
	char buf[32];
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		CHECK(strcmp(hg_format_duration(c[i].ns, buf), c[i].want) == 0,
		      "format %llu = %s, want %s", (unsigned long long)c[i].ns, buf, c[i].want);
	/* Round trip: what we print parses back to the same value. */
	for (uint64_t ns = 1; ns < 20000000000ull; ns = ns * 7 + 3) {
		uint64_t back;
		char err[HG_ERRLEN];
		hg_format_duration(ns, buf);
		CHECK(hg_parse_duration(buf, &back, err) == 0 && back == ns, "round trip %s", buf);
	}
}

static void test_cpusets_and_names(void)
{
	cpu_set_t set;
	char err[HG_ERRLEN], buf[64];
	CHECK(hg_cpuset_parse("0-3,6", &set, err) == 0 && CPU_COUNT(&set) == 5, "0-3,6");
	CHECK(strcmp(hg_cpuset_format(&set, buf, sizeof(buf)), "0-3,6") == 0, "format %s", buf);
	CHECK(hg_cpuset_parse("3-1", &set, err) != 0 && strstr(err, "backwards"), "3-1");
	CHECK(hg_cpuset_parse("0,,1", &set, err) != 0, "0,,1");
	CHECK(hg_cpuset_parse("0-1,1", &set, err) != 0 && strstr(err, "listed twice"), "0-1,1");
	CHECK(hg_cpuset_parse("a", &set, err) != 0, "a");
	CHECK(hg_cpuset_parse("5000", &set, err) != 0 && strstr(err, "out of range"), "5000");
	static const char *const keys[] = { "duration", "threads", "trace", "name" };
	CHECK(hg_suggest("durration", keys, 4) == keys[0], "durration");
	CHECK(hg_suggest("thread", keys, 4) == keys[1], "thread");
	CHECK(hg_suggest("zzzzzz", keys, 4) == NULL, "zzzzzz");
	CHECK(hg_suggest("Name", keys, 4) == keys[3], "Name");
	static const char *const wkeys[] = { "type", "exec", "period" };
	CHECK(hg_suggest("exce", wkeys, 3) == wkeys[1], "exce (a swap)");
}

int main(void)
{
	test_durations();
	test_durations_nearest();
	test_sizes();
	test_integers();
	test_format();
	test_cpusets_and_names();
	return unit_report("test_units");
}
