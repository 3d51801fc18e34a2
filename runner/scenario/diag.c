/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Collecting and printing diagnostics. */
#include <string.h>

#include "scenario/diag.h"

void hg_diags_init(struct hg_diags *d, const char *file)
{
	memset(d, 0, sizeof(*d));
	d->file = file;
}

void hg_diag_vadd(struct hg_diags *d, unsigned line, unsigned column,
		  const char *path, const char *fmt, va_list ap)
{
	struct hg_diag e;
	e.line = line;
	e.column = column;
	snprintf(e.path, sizeof(e.path), "%s", path ? path : "");
	vsnprintf(e.message, sizeof(e.message), fmt, ap);
	/* A value shared through defaults: is wrong once, not once per thread. */
	size_t n = d->count < HG_DIAG_MAX ? d->count : HG_DIAG_MAX;
	for (size_t i = 0; i < n; i++)
		if (d->items[i].line == line && d->items[i].column == column &&
		    strcmp(d->items[i].message, e.message) == 0)
			return;
	if (d->count < HG_DIAG_MAX)
		d->items[d->count] = e;
	d->count++;
}

void hg_diag_add(struct hg_diags *d, unsigned line, unsigned column,
		 const char *path, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	hg_diag_vadd(d, line, column, path, fmt, ap);
	va_end(ap);
}

static int by_position(const void *a, const void *b)
{
	const struct hg_diag *x = a, *y = b;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->column != y->column)
		return x->column < y->column ? -1 : 1;
	return 0;
}

void hg_diags_sort(struct hg_diags *d)
{
	size_t n = d->count < HG_DIAG_MAX ? d->count : HG_DIAG_MAX;
	/* Insertion sort: stable, and n is small. */
	for (size_t i = 1; i < n; i++) {
		struct hg_diag tmp = d->items[i];
		size_t j = i;
		while (j > 0 && by_position(&d->items[j - 1], &tmp) > 0) {
			d->items[j] = d->items[j - 1];
			j--;
		}
		d->items[j] = tmp;
	}
}

void hg_diags_print(const struct hg_diags *d, FILE *out)
{
	size_t n = d->count < HG_DIAG_MAX ? d->count : HG_DIAG_MAX;
	for (size_t i = 0; i < n; i++) {
		const struct hg_diag *e = &d->items[i];
		if (e->line)
			fprintf(out, "%s:%u:%u: error: ", d->file, e->line, e->column);
		else
			fprintf(out, "%s: error: ", d->file);
		if (e->path[0])
			fprintf(out, "%s: ", e->path);
		fprintf(out, "%s\n", e->message);
	}
	if (d->count > HG_DIAG_MAX)
		fprintf(out, "%s: note: %zu more errors not shown\n", d->file,
			d->count - HG_DIAG_MAX);
}
