/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Edit distance suggestions (fio's "did you mean X?"). */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "base/names.h"

static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 63 || lb > 63)
		return (size_t)-1;
	/* Damerau-Levenshtein (optimal string alignment): a swap of two
	 * neighbouring letters (exce -> exec) is one edit. */
	size_t d[64][64];
	for (size_t i = 0; i <= la; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++) {
		for (size_t j = 1; j <= lb; j++) {
			int same = tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 1]);
			size_t best = d[i - 1][j - 1] + (same ? 0 : 1);
			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == tolower((unsigned char)b[j - 1]) &&
			    d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	}
	return d[la][lb];
}

const char *hg_suggest(const char *word, const char *const *candidates, size_t n)
{
	const char *best = NULL;
	size_t best_d = (size_t)-1;
	size_t len = strlen(word);
	size_t limit = len <= 4 ? 1 : len <= 8 ? 2 : 3;
	for (size_t i = 0; i < n; i++) {
		size_t d = edit_distance(word, candidates[i]);
		/* A prefix (perio -> period, work -> workload) is a typo too. */
		if (len >= 3 && strncmp(candidates[i], word, len) == 0 && d > 1)
			d = 1;
		if (d < best_d) {
			best_d = d;
			best = candidates[i];
		}
	}
	return best_d <= limit ? best : NULL;
}

const char *hg_join(const char *const *names, size_t n, char *buf, size_t size)
{
	size_t used = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < n && used < size; i++)
		used += (size_t)snprintf(buf + used, size - used, "%s%s", i ? ", " : "", names[i]);
	return buf;
}

const char *hg_unknown_hint(const char *word, const char *const *candidates, size_t n,
			    char *buf, size_t size)
{
	const char *s = hg_suggest(word, candidates, n);
	if (s) {
		snprintf(buf, size, "; did you mean '%s'?", s);
	} else {
		char list[512];
		snprintf(buf, size, " (valid: %s)", hg_join(candidates, n, list, sizeof(list)));
	}
	return buf;
}
