/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The preemption model from the kernel's facts: see run/preempt_model.h. */
#include <stdio.h>
#include <string.h>

#include "run/preempt_model.h"

/* Whether `word` occurs in the blank-separated list `s`. */
static bool has_word(const char *s, const char *word)
{
	size_t len = strlen(word);
	for (const char *p = s; s && (p = strstr(p, word)) != NULL; p += len) {
		bool starts = p == s || p[-1] == ' ' || p[-1] == '\t';
		bool ends = p[len] == '\0' || p[len] == ' ' || p[len] == '\t' || p[len] == '\n';
		if (starts && ends)
			return true;
	}
	return false;
}

bool hg_preempt_debugfs_word(const char *line, char *out, unsigned size)
{
	const char *open = line ? strchr(line, '(') : NULL;
	const char *close = open ? strchr(open, ')') : NULL;
	if (!close || close == open + 1)
		return false;
	snprintf(out, size, "%.*s", (int)(close - open - 1), open + 1);
	return true;
}

/* The modes sched_dynamic_mode() of the kernel accepts (preempt=,
 * sched/preempt); "laziest" is the RT patch set's. */
static bool dynamic_word(const char *s)
{
	static const char *const modes[] = { "none", "voluntary", "full", "lazy", "laziest" };
	for (size_t i = 0; s && i < sizeof(modes) / sizeof(modes[0]); i++)
		if (strcmp(s, modes[i]) == 0)
			return true;
	return false;
}

static void set(char *dst, const char *src)
{
	snprintf(dst, 16, "%s", src);
}

/* The dynamic mode in effect, most direct source first: debugfs is the
 * scheduler's own answer; the kernel log's last "Dynamic Preempt:" is
 * printed at boot and at every change; preempt= is the boot choice; the
 * build's default is what a boot without preempt= starts in. */
static void dynamic_mode(const struct hg_preempt_facts *f, struct hg_preempt_model *out)
{
	char word[16];
	if (hg_preempt_debugfs_word(f->debugfs, word, sizeof(word))) {
		set(out->dynamic, word);
		out->dynamic_source = f->debugfs_source ? f->debugfs_source
				      : "/sys/kernel/debug/sched/preempt";
	} else if (dynamic_word(f->klog_dynamic)) {
		set(out->dynamic, f->klog_dynamic);
		out->dynamic_source = "kernel log (Dynamic Preempt:)";
	} else if (dynamic_word(f->cmdline_preempt)) {
		set(out->dynamic, f->cmdline_preempt);
		out->dynamic_source = "/proc/cmdline (preempt=)";
	} else if (f->config_dynamic_default && dynamic_word(f->config_dynamic_default)) {
		set(out->dynamic, f->config_dynamic_default);
		out->dynamic_source = "kernel config default (no preempt= on the command line)";
	} else {
		out->dynamic_source = "none";
	}
}

void hg_preempt_decide(const struct hg_preempt_facts *f, struct hg_preempt_model *out)
{
	memset(out, 0, sizeof(*out));
	const char *rt = NULL;
	if (f->realtime && strcmp(f->realtime, "1") == 0)
		rt = "/sys/kernel/realtime";
	else if (has_word(f->uname_version, "PREEMPT_RT"))
		rt = "uname -v";
	else if (f->config_model && strcmp(f->config_model, "rt") == 0)
		rt = f->config_source ? f->config_source : "kernel config";
	char word[16];
	out->is_dynamic = has_word(f->uname_version, "PREEMPT_DYNAMIC") || f->config_dynamic == 1 ||
			  hg_preempt_debugfs_word(f->debugfs, word, sizeof(word));
	if (out->is_dynamic)
		dynamic_mode(f, out);
	else
		out->dynamic_source = "none";
	if (rt) {
		set(out->model, "rt");
		out->source = rt;
	} else if (out->is_dynamic) {
		set(out->model, out->dynamic[0] ? out->dynamic : "dynamic");
		out->source = out->dynamic[0] ? out->dynamic_source : "uname -v";
	} else if (f->config_model && f->config_model[0]) {
		set(out->model, f->config_model);
		out->source = f->config_source ? f->config_source : "kernel config";
	} else if (has_word(f->uname_version, "PREEMPT_LAZY")) {
		set(out->model, "lazy");
		out->source = "uname -v";
	} else if (has_word(f->uname_version, "PREEMPT")) {
		set(out->model, "full");
		out->source = "uname -v";
	} else {
		/* no PREEMPT in the build string: none or voluntary, the
		 * configuration would say which */
		set(out->model, "unknown");
		out->source = "none";
	}
}
