/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The preemption model from the kernel's facts (runner/run/preempt_model.c),
 * with the facts Debian's kernels give under QEMU: 6.1 and
 * 6.12 (PREEMPT_DYNAMIC, voluntary by default), with preempt= on the command
 * line and changed through debugfs; 6.1-rt (RT, no dynamic mode) and 6.12-rt
 * (RT and PREEMPT_DYNAMIC: "full (lazy) laziest"), also with
 * /sys/kernel/realtime hidden; lockdown (no debugfs); a kernel without its
 * configuration; static builds; and kernel lockdown's securityfs line. */
#include <string.h>

#include "unit.h"
#include "run/host_kernel.h"
#include "run/preempt_model.h"

#define V61 "#1 SMP PREEMPT_DYNAMIC Debian 6.1.176-1 (2026-07-02)"
#define V61RT "#1 SMP PREEMPT_RT Debian 6.1.176-1 (2026-07-02)"
#define V612 "#1 SMP PREEMPT_DYNAMIC Debian 6.12.117-1 (2026-11-12)"
#define V612RT "#1 SMP PREEMPT_RT Debian 6.12.117-1 (2026-11-12)"
#define CFG "/boot/config-x"
#define DBG "/sys/kernel/debug/sched/preempt (debugfs mounted privately)"

struct want {
	const char *name;
	struct hg_preempt_facts f;
	const char *model, *source, *dynamic, *dynamic_source;
};

static const struct want cases[] = {
	{ "6.1: debugfs says voluntary",
	  { V61, NULL, "voluntary", "voluntary", 1, CFG, "none (voluntary) full", DBG, NULL,
	    "voluntary" },
	  "voluntary", DBG, "voluntary", DBG },
	{ "6.1 preempt=full: debugfs agrees",
	  { V61, NULL, "voluntary", "voluntary", 1, CFG, "none voluntary (full)", DBG, "full",
	    "full" },
	  "full", DBG, "full", DBG },
	{ "6.1 preempt=full under lockdown: no debugfs, the kernel log",
	  { V61, NULL, "voluntary", "voluntary", 1, CFG, NULL, NULL, "full", "full" },
	  "full", "kernel log (Dynamic Preempt:)", "full", "kernel log (Dynamic Preempt:)" },
	{ "6.1 preempt=none, log rolled over: the command line",
	  { V61, NULL, "voluntary", "voluntary", 1, CFG, NULL, NULL, "none", NULL },
	  "none", "/proc/cmdline (preempt=)", "none", "/proc/cmdline (preempt=)" },
	{ "6.1 preempt=bogus, nothing else: the build's default",
	  { V61, NULL, "voluntary", "voluntary", 1, CFG, NULL, NULL, "bogus", NULL },
	  "voluntary", "kernel config default (no preempt= on the command line)", "voluntary",
	  "kernel config default (no preempt= on the command line)" },
	{ "6.1 changed through debugfs after boot: debugfs wins over the command line",
	  { V61, NULL, "voluntary", "voluntary", 1, CFG, "(none) voluntary full", DBG, "full",
	    "full" },
	  "none", DBG, "none", DBG },
	{ "6.1 without configuration or debugfs: PREEMPT_DYNAMIC, mode unknown",
	  { V61, NULL, NULL, NULL, -1, NULL, NULL, NULL, NULL, NULL },
	  "dynamic", "uname -v", "", "none" },
	{ "6.1-rt: /sys/kernel/realtime",
	  { V61RT, "1", "rt", "lazy", 0, CFG, NULL, NULL, NULL, NULL },
	  "rt", "/sys/kernel/realtime", "", "none" },
	{ "6.1-rt, realtime hidden: uname -v",
	  { V61RT, NULL, "rt", "lazy", 0, CFG, NULL, NULL, NULL, NULL },
	  "rt", "uname -v", "", "none" },
	{ "6.12-rt: rt, and its dynamic mode lazy",
	  { V612RT, "1", "rt", "lazy", 1, CFG, "full (lazy) laziest", DBG, NULL, "lazy" },
	  "rt", "/sys/kernel/realtime", "lazy", DBG },
	{ "6.12-rt, realtime hidden: still rt (debugfs' lazy is the dynamic mode)",
	  { V612RT, NULL, "rt", "lazy", 1, CFG, "full (lazy) laziest", DBG, NULL, "lazy" },
	  "rt", "uname -v", "lazy", DBG },
	{ "6.12-rt preempt=full, realtime hidden, no configuration",
	  { V612RT, NULL, NULL, NULL, -1, NULL, "(full) lazy laziest", DBG, "full", "full" },
	  "rt", "uname -v", "full", DBG },
	{ "an RT build whose uname -v was changed: the configuration",
	  { "#1 SMP custom", NULL, "rt", "full", 0, CFG, NULL, NULL, NULL, NULL },
	  "rt", CFG, "", "none" },
	{ "realtime present but 0: not RT by that file",
	  { V612, "0", "voluntary", "voluntary", 1, CFG, "none (voluntary) full", DBG, NULL,
	    NULL },
	  "voluntary", DBG, "voluntary", DBG },
	{ "6.12 lockdown, klog rolled over, no preempt=: the build's default",
	  { V612, NULL, "voluntary", "voluntary", 1, CFG, NULL, NULL, NULL, NULL },
	  "voluntary", "kernel config default (no preempt= on the command line)", "voluntary",
	  "kernel config default (no preempt= on the command line)" },
	{ "static PREEMPT build: the configuration",
	  { "#1 SMP PREEMPT Tue", NULL, "full", "full", 0, CFG, NULL, NULL, "none", NULL },
	  "full", CFG, "", "none" },
	{ "static PREEMPT build without configuration: uname -v (preempt= is ignored)",
	  { "#1 SMP PREEMPT Tue", NULL, NULL, NULL, -1, NULL, NULL, NULL, "none", NULL },
	  "full", "uname -v", "", "none" },
	{ "static voluntary build",
	  { "#1 SMP Tue", NULL, "voluntary", "voluntary", 0, CFG, NULL, NULL, NULL, NULL },
	  "voluntary", CFG, "", "none" },
	{ "nothing known",
	  { "#1 SMP Tue", NULL, NULL, NULL, -1, NULL, NULL, NULL, NULL, NULL },
	  "unknown", "none", "", "none" },
	{ "nothing at all",
	  { NULL, NULL, NULL, NULL, -1, NULL, NULL, NULL, NULL, NULL },
	  "unknown", "none", "", "none" },
};

static void test_lockdown(void)
{
	char m[32];
	CHECK(hg_lockdown_parse("[none] integrity confidentiality", m, sizeof(m)) &&
	      strcmp(m, "none") == 0, "none (%s)", m);
	CHECK(hg_lockdown_parse("none integrity [confidentiality]\n", m, sizeof(m)) &&
	      strcmp(m, "confidentiality") == 0, "confidentiality (%s)", m);
	CHECK(!hg_lockdown_parse("none integrity", m, sizeof(m)), "no bracket");
	CHECK(!hg_lockdown_parse(NULL, m, sizeof(m)), "NULL");
	char w[16];
	CHECK(hg_preempt_debugfs_word("full (lazy) laziest", w, sizeof(w)) &&
	      strcmp(w, "lazy") == 0, "debugfs word (%s)", w);
	CHECK(!hg_preempt_debugfs_word("() x", w, sizeof(w)), "empty parentheses");
}

int main(void)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct want *c = &cases[i];
		struct hg_preempt_model m;
		hg_preempt_decide(&c->f, &m);
		CHECK(strcmp(m.model, c->model) == 0 && strcmp(m.source, c->source) == 0,
		      "%s: model %s from %s, want %s from %s", c->name, m.model, m.source, c->model,
		      c->source);
		CHECK(strcmp(m.dynamic, c->dynamic) == 0 &&
		      strcmp(m.dynamic_source, c->dynamic_source) == 0,
		      "%s: dynamic '%s' from %s, want '%s' from %s", c->name, m.dynamic,
		      m.dynamic_source, c->dynamic, c->dynamic_source);
	}
	test_lockdown();
	return unit_report("test_preempt_model");
}
