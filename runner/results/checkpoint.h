/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checkpoints (docs/results.md): result.json rewritten during the run with
 * complete: false and how far it got, so a killed run still reads. */
#ifndef HG_CHECKPOINT_H
#define HG_CHECKPOINT_H

#include "results/stream.h"

/* The streaming writer's checkpoint (an hg_checkpoint_fn, handed to
 * hg_stream_start by results/sink.c).  Returns 0 or -errno. */
int hg_checkpoint_write(struct hg_stream *s, struct hg_run_state *rs);

#endif
