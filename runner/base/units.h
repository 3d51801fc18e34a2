/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Strict parsing of user-entered numbers: durations, sizes, integers,
 * booleans.  No sign where none makes sense, no exponent, no trailing junk.
 * Each parser returns 0, or -1 with a message for the user in err. */
#ifndef HG_UNITS_H
#define HG_UNITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HG_ERRLEN 256
/* 30 days: long soak runs fit, and every time stays far from int64 overflow. */
#define HG_DURATION_MAX_NS (30ull * 24 * 3600 * 1000000000ull)

int hg_parse_duration(const char *s, uint64_t *ns, char err[HG_ERRLEN]);
/* As hg_parse_duration, but a value finer than 1 ns (976.5625us) is rounded to
 * the nearest ns (ties up) and *rounded set: for translating other tools'
 * command lines, which must then say the value they used. */
int hg_parse_duration_nearest(const char *s, uint64_t *ns, bool *rounded,
			      char err[HG_ERRLEN]);
int hg_parse_size(const char *s, uint64_t *bytes, char err[HG_ERRLEN]);
int hg_parse_uint(const char *s, uint64_t min, uint64_t max, uint64_t *out,
		  char err[HG_ERRLEN]);
int hg_parse_int(const char *s, int64_t min, int64_t max, int64_t *out,
		 char err[HG_ERRLEN]);
int hg_parse_bool(const char *s, bool *out, char err[HG_ERRLEN]);
/* A finite decimal number (no exponent, no hex): 0.01, 12, 3.5 */
int hg_parse_number(const char *s, double *out, char err[HG_ERRLEN]);

/* Shortest exact spelling: 4000000 -> "4ms", 1500000000 -> "1.5s". */
const char *hg_format_duration(uint64_t ns, char buf[32]);
/* A measured time for people, three significant digits: "12.3 ms", "4.91 s". */
const char *hg_format_ns_approx(double ns, char buf[32]);
const char *hg_format_size(uint64_t bytes, char buf[32]);
/* For messages, rounded to one decimal: 819552256 -> "781.6 MiB",
 * 65536 -> "64 KiB", 12 -> "12 bytes". */
const char *hg_format_size_approx(uint64_t bytes, char buf[32]);

#endif
