/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the kernel trace and the competition measures say about a run
 * (docs/kernel-trace.md): built by the sink after the threads are joined
 * into rs->kernel (ktrace/kernel_state.h), read by result.json, the trace
 * writers and the summary, freed at the end of the sink's finish. */
#ifndef HG_KERNEL_FINDINGS_H
#define HG_KERNEL_FINDINGS_H

#include <jansson.h>
#include <stdio.h>

#include "ktrace/kernel_state.h"
#include "run/runstate.h"

/* Builds rs->kernel (attribution when traced, competition always), writes
 * each gap's cause into its record of trace.bin (the streaming writer has
 * stopped; it closes the file later) and adds the competition warnings to
 * rs->warnings.  What the writer made is said by `in` (results/sink.c). */
void hg_kernel_findings_build(struct hg_run_state *rs, const struct hg_kernel_inputs *in);
void hg_kernel_findings_free(struct hg_run_state *rs);

#endif
