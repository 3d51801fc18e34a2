/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a run observes beside its own threads (docs/kernel-trace.md): the
 * kernel's events through ktrace/ktrace.h when the plan asks for them, and
 * the competition of ktrace/competition.h always. */
#ifndef HG_OBSERVE_H
#define HG_OBSERVE_H

#include "run/run_options.h"

/* run/run_options.h's observer, for hg_run_options (cli/, sweep/).  Its
 * start starts the kernel trace (when asked: rs->ktrace) and takes the
 * competition's first snapshot (rs->competition); it refuses the run with
 * HG_EXIT_PRIVILEGE when the trace cannot start under --strict (else a
 * warning).  Its stop ends both and warns when the kernel trace is
 * incomplete. */
extern const struct hg_run_observer hg_kernel_observer;

#endif
