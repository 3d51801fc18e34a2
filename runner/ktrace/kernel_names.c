/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Names of what the kernel trace saw: see ktrace/kernel_names.h. */
#include <stdio.h>

#include "ktrace/attribution.h"
#include "ktrace/kernel_names.h"
#include "ktrace/ktrace.h"

static const char *const softirq_names[] = { "HI", "TIMER", "NET_TX", "NET_RX", "BLOCK",
	"IRQ_POLL", "TASKLET", "SCHED", "HRTIMER", "RCU" };

void hg_kernel_who_name(const struct hg_run_state *rs, uint8_t cause, int32_t who, char *buf,
			size_t size)
{
	const char *n = NULL;
	switch (cause) {
	case HG_CAUSE_IRQ:
		n = hg_knames_irq(hg_ktrace_names(rs->ktrace), who);
		snprintf(buf, size, "irq %d%s%s", who, n ? " " : "", n ? n : "");
		return;
	case HG_CAUSE_SOFTIRQ:
		snprintf(buf, size, "%s", who >= 0 && who < 10 ? softirq_names[who] : "?");
		return;
	case HG_CAUSE_TIMER: case HG_CAUSE_IPI:
		snprintf(buf, size, "vector %d", who);
		return;
	default:
		snprintf(buf, size, "%s", hg_ktrace_task_name(rs->ktrace, who));
	}
}
