/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Loading a scenario as a libyaml document: reading the file (bounded),
 * syntax errors with their marks, one document only, duplicate keys. */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario/yamldoc.h"
#include "scenario/yamlerrors.h"
#include "scenario/yamlguard.h"

char *hg_read_text(const char *path, size_t *len, char err[256])
{
	/* O_NONBLOCK: opening a FIFO with no writer must not hang. */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		snprintf(err, 256, "cannot open: %s", strerror(errno));
		return NULL;
	}
	struct stat st;
	if (fstat(fd, &st) != 0) {
		snprintf(err, 256, "cannot read: %s", strerror(errno));
		close(fd);
		return NULL;
	}
	/* The size is checked before reading: /dev/zero, a FIFO or a device
	 * would otherwise be read until memory runs out. */
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, 256, "not a regular file (%s): give the path of a scenario file",
			 S_ISDIR(st.st_mode) ? "a directory" : S_ISFIFO(st.st_mode) ? "a FIFO" :
			 S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device" : "a special file");
		close(fd);
		return NULL;
	}
	if (st.st_size > HG_MAX_SCENARIO_BYTES) {
		snprintf(err, 256, "the file is %lld bytes: a scenario is at most 1 MiB",
			 (long long)st.st_size);
		close(fd);
		return NULL;
	}
	/* At most limit + 1 bytes, even if the file grows while we read. */
	size_t room = HG_MAX_SCENARIO_BYTES + 1, n = 0;
	char *buf = malloc(room + 1);
	if (!buf) {
		snprintf(err, 256, "out of memory");
		close(fd);
		return NULL;
	}
	while (n < room) {
		ssize_t got = read(fd, buf + n, room - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			snprintf(err, 256, "cannot read: %s", strerror(errno));
			free(buf);
			close(fd);
			return NULL;
		}
		if (got == 0)
			break;
		n += (size_t)got;
	}
	close(fd);
	if (n > HG_MAX_SCENARIO_BYTES) {
		snprintf(err, 256, "the file grew past %zu bytes while being read: a scenario is "
			 "at most 1 MiB", n);
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

/* A hint for the syntax errors people actually make. */
static const char *syntax_hint(const yaml_parser_t *p)
{
	const char *problem = p->problem ? p->problem : "";
	if (strstr(problem, "tab"))
		return ": indent with spaces, not tabs";
	if (p->context && strstr(p->context, "flow mapping"))
		return ": inside {...} quote keys and values that hold [ ] { } or ',' "
		       "(\"threads[rt].timer\": [...]) or write the mapping in block style";
	return "";
}

/* libyaml's reader errors (bad UTF-8, control characters) come with a byte
 * offset only: count lines and characters up to it. */
static yaml_mark_t mark_of_offset(const char *text, size_t len, size_t offset)
{
	yaml_mark_t m = { 0, 0, 0 };
	for (size_t i = 0; i < offset && i < len; i++) {
		if (text[i] == '\n') {
			m.line++;
			m.column = 0;
		} else if (((unsigned char)text[i] & 0xC0) != 0x80) {
			m.column++;     /* count characters, not UTF-8 continuation bytes */
		}
	}
	m.index = offset;
	return m;
}

static void syntax_error(const yaml_parser_t *p, const struct hg_yaml *y, struct hg_diags *d)
{
	yaml_mark_t reader;
	const yaml_mark_t *m = p->problem ? &p->problem_mark : &p->mark;
	char why[HG_YAML_WHY_LEN];
	unsigned line, column;
	if (hg_yaml_explain(p, y->text, y->len, why, &line, &column)) {
		hg_diag_add(d, line, column, NULL, "YAML syntax: %s", why);
		return;
	}
	if (p->error == YAML_READER_ERROR) {
		reader = mark_of_offset(y->text, y->len, p->problem_offset);
		m = &reader;
	}
	if (p->context)
		hg_diag_add(d, (unsigned)m->line + 1, (unsigned)m->column + 1, NULL,
			    "YAML syntax: %s %s (started at line %zu)%s", p->problem,
			    p->context, p->context_mark.line + 1, syntax_hint(p));
	else
		hg_diag_add(d, (unsigned)m->line + 1, (unsigned)m->column + 1, NULL,
			    "YAML syntax: %s", p->problem ? p->problem : "invalid document");
}

static int parse_text(struct hg_yaml *y, struct hg_diags *d);

int hg_yaml_open(struct hg_yaml *y, const char *path, struct hg_diags *d)
{
	char err[256];
	memset(y, 0, sizeof(*y));
	y->text = hg_read_text(path, &y->len, err);
	if (!y->text) {
		hg_diag_add(d, 0, 0, NULL, "%s", err);
		return -1;
	}
	return parse_text(y, d);
}

int hg_yaml_open_string(struct hg_yaml *y, const char *text, struct hg_diags *d)
{
	memset(y, 0, sizeof(*y));
	y->text = strdup(text);
	if (!y->text) {
		hg_diag_add(d, 0, 0, NULL, "out of memory");
		return -1;
	}
	y->len = strlen(text);
	return parse_text(y, d);
}

/* Hostile input is bounded before libyaml builds anything: the size
 * (also for text from memory), then the token stream (scenario/yamlguard.c). */
static int check_limits(const struct hg_yaml *y, struct hg_diags *d)
{
	if (y->len > HG_MAX_SCENARIO_BYTES) {
		hg_diag_add(d, 1, 1, NULL, "the file is %zu bytes: a scenario is at most 1 MiB",
			    y->len);
		return -1;
	}
	return hg_yaml_guard(y->text, y->len, d);
}

static int parse_text(struct hg_yaml *y, struct hg_diags *d)
{
	size_t before = d->count;
	if (check_limits(y, d) != 0)
		return -1;
	yaml_parser_t parser;
	if (!yaml_parser_initialize(&parser)) {
		hg_diag_add(d, 0, 0, NULL, "cannot initialise the YAML parser");
		return -1;
	}
	yaml_parser_set_input_string(&parser, (const unsigned char *)y->text, y->len);
	int ok = yaml_parser_load(&parser, &y->doc);
	if (!ok) {
		syntax_error(&parser, y, d);
		yaml_parser_delete(&parser);
		return -1;
	}
	y->loaded = true;
	if (!yaml_document_get_root_node(&y->doc)) {
		hg_diag_add(d, 1, 1, NULL, "the file is empty: a scenario starts with 'hgrun: 1'");
		yaml_parser_delete(&parser);
		return -1;
	}
	/* A second document in the stream is a mistake, not something to ignore. */
	yaml_document_t next;
	if (!yaml_parser_load(&parser, &next)) {
		syntax_error(&parser, y, d);
	} else {
		yaml_node_t *r = yaml_document_get_root_node(&next);
		if (r)
			hg_diag_add(d, (unsigned)next.start_mark.line + 1,
				    (unsigned)next.start_mark.column + 1, NULL,
				    "a scenario file holds one YAML document; remove this '---' and what follows, or move it to its own file");
		yaml_document_delete(&next);
	}
	yaml_parser_delete(&parser);
	if (d->count != before)
		return -1;
	/* libyaml accepts duplicate keys; a scenario must not (which one wins?). */
	return hg_yaml_check_duplicates(y, d);
}

void hg_yaml_close(struct hg_yaml *y)
{
	if (y->loaded)
		yaml_document_delete(&y->doc);
	free(y->text);
	memset(y, 0, sizeof(*y));
}
