/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Recognising the syntax errors people make from libyaml's problem text
 * and the lines around its marks (scenario/yamldoc.c reports them). */
#include <stdio.h>
#include <string.h>

#include "scenario/yamlerrors.h"

/* A line of the text: its start, length and indentation (spaces only). */
struct line {
	const char *start;
	size_t len;
	size_t indent;      /* leading spaces */
	bool tab;           /* a tab in the leading whitespace */
	size_t tab_col;     /* 0-based column of that tab */
	size_t key_col;     /* column of the first key: after "- " markers */
};

static bool get_line(const char *text, size_t len, size_t number, struct line *l)
{
	const char *p = text, *end = text + len;
	for (size_t n = 0; n < number; n++) {
		p = memchr(p, '\n', (size_t)(end - p));
		if (!p)
			return false;
		p++;
	}
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	memset(l, 0, sizeof(*l));
	l->start = p;
	l->len = (size_t)((nl ? nl : end) - p);
	size_t i = 0;
	while (i < l->len && (p[i] == ' ' || p[i] == '\t')) {
		if (p[i] == '\t' && !l->tab) {
			l->tab = true;
			l->tab_col = i;
		}
		i++;
	}
	l->indent = 0;
	while (l->indent < l->len && p[l->indent] == ' ')
		l->indent++;
	l->key_col = i;
	while (l->key_col + 1 < l->len && p[l->key_col] == '-' && p[l->key_col + 1] == ' ') {
		l->key_col += 2;
		while (l->key_col < l->len && p[l->key_col] == ' ')
			l->key_col++;
	}
	return true;
}

static bool blank_or_comment(const struct line *l)
{
	return l->key_col >= l->len || l->start[l->key_col] == '#';
}

/* The first line in [from, to] with a tab in its indentation. */
static bool find_tab(const char *text, size_t len, size_t from, size_t to, size_t *line,
		     size_t *col)
{
	struct line l;
	for (size_t n = from; n <= to && get_line(text, len, n, &l); n++) {
		if (l.tab) {
			*line = n;
			*col = l.tab_col;
			return true;
		}
	}
	return false;
}

static bool has(const char *s, const char *part)
{
	return s && strstr(s, part);
}

/* A line indented differently from the mapping it belongs to. */
static bool indentation(const char *text, size_t len, size_t number, char *why, size_t size)
{
	struct line here, before;
	size_t prev = number;
	if (!get_line(text, len, number, &here) || blank_or_comment(&here))
		return false;
	do {
		if (prev-- == 0)
			return false;
		get_line(text, len, prev, &before);
	} while (blank_or_comment(&before));
	size_t want = before.key_col;
	/* a line ending in ':' opens a nested mapping: any deeper indent is fine */
	const char *last = before.start + before.len;
	while (last > before.start && (last[-1] == ' ' || last[-1] == '\r'))
		last--;
	if (last > before.start && last[-1] == ':' && here.indent > want)
		return false;
	if (here.indent == want)
		return false;
	size_t off = here.indent > want ? here.indent - want : want - here.indent;
	char amount[48];
	if (off == 1)
		snprintf(amount, sizeof(amount), "one space too %s", here.indent > want ? "far" : "few");
	else
		snprintf(amount, sizeof(amount), "%zu spaces too %s", off,
			 here.indent > want ? "far" : "few");
	const char *key = before.start + before.key_col;
	int key_len = (int)strcspn(key, ":\n");
	snprintf(why, size, "indentation: line %zu is indented %zu space%s, %s: '%.*s' on "
		 "line %zu starts at column %zu, and the keys of one mapping must line up "
		 "(YAML counts spaces)", number + 1, here.indent, here.indent == 1 ? "" : "s",
		 amount, key_len < 40 ? key_len : 40, key, prev + 1, want + 1);
	return true;
}

bool hg_yaml_explain(const yaml_parser_t *p, const char *text, size_t len,
		     char why[HG_YAML_WHY_LEN], unsigned *line, unsigned *column)
{
	if (p->error == YAML_READER_ERROR || !p->problem)
		return false;
	const yaml_mark_t *pm = &p->problem_mark, *cm = &p->context_mark;
	size_t tl, tc;
	size_t from = p->context ? cm->line : pm->line;
	char libyaml[160];
	snprintf(libyaml, sizeof(libyaml), " (libyaml: %.80s%s%.40s)", p->problem,
		 p->context ? " " : "", p->context ? p->context : "");
	if ((has(p->problem, "tab") || has(p->problem, "cannot start any token")) &&
	    find_tab(text, len, from < pm->line ? from : pm->line, pm->line, &tl, &tc)) {
		snprintf(why, HG_YAML_WHY_LEN, "a tab character: YAML indents with spaces; "
			 "replace the tab with spaces%s", libyaml);
		*line = (unsigned)tl + 1;
		*column = (unsigned)tc + 1;
		return true;
	}
	if (has(p->problem, "end of stream") && has(p->context, "quoted scalar")) {
		char quote = cm->index < len ? text[cm->index] : '"';
		snprintf(why, HG_YAML_WHY_LEN, "an unclosed quote: the %c that starts here has no "
			 "closing %c, so YAML read to the end of the file looking for it%s", quote,
			 quote, libyaml);
		*line = (unsigned)cm->line + 1;
		*column = (unsigned)cm->column + 1;
		return true;
	}
	if (p->context && (has(p->context, "flow sequence") || has(p->context, "flow mapping")) &&
	    pm->line > cm->line) {
		bool seq = has(p->context, "flow sequence");
		snprintf(why, HG_YAML_WHY_LEN, "an unclosed bracket: the '%c' that starts here has "
			 "no matching '%c' (or a ',' is missing between items); YAML "
			 "gave up at line %zu%s", seq ? '[' : '{', seq ? ']' : '}', pm->line + 1,
			 libyaml);
		*line = (unsigned)cm->line + 1;
		*column = (unsigned)cm->column + 1;
		return true;
	}
	if ((has(p->problem, "mapping values are not allowed") && !has(p->context, "flow")) ||
	    has(p->problem, "did not find expected '-' indicator") ||
	    has(p->problem, "did not find expected key")) {
		char text_why[HG_YAML_WHY_LEN];
		if (indentation(text, len, pm->line, text_why, sizeof(text_why))) {
			snprintf(why, HG_YAML_WHY_LEN, "%.250s%s", text_why, libyaml);
			*line = (unsigned)pm->line + 1;
			*column = 1;
			return true;
		}
	}
	return false;
}
