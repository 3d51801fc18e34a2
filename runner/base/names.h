/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Name matching for messages: "did you mean ...?" and lists of valid names. */
#ifndef HG_NAMES_H
#define HG_NAMES_H

#include <stddef.h>

/* The candidate closest to `word` (edit distance, case-insensitive), or NULL
 * when none is close enough to be a plausible typo. */
const char *hg_suggest(const char *word, const char *const *candidates, size_t n);
/* "a, b, c" into buf. */
const char *hg_join(const char *const *names, size_t n, char *buf, size_t size);
/* "; did you mean 'x'?" or " (valid: a, b, c)" into buf, for an unknown word. */
const char *hg_unknown_hint(const char *word, const char *const *candidates, size_t n,
			    char *buf, size_t size);

#endif
