/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The counter's rate kept for the rest of the boot, so that a run need not
 * spend 80 ms measuring it again (docs/semantics.md, "A run, step by
 * step").  An invariant counter keeps its rate while the machine is up; a
 * run reuses the last full calibration of this boot once a short check
 * agrees with it (run/counter.c).  The file is `calibration` in
 * /run/hgrun for root, else in $XDG_RUNTIME_DIR/hgrun;
 * HGRUN_CALIBRATION_CACHE=DIR puts it in DIR, =off turns the cache off.
 * It is believed only when it and its directory belong to the user and
 * nobody else may write them, and only for this boot and counter. */
#ifndef HG_CALCACHE_H
#define HG_CALCACHE_H

#include <stdbool.h>

struct hg_calcache {
	double hz, hz_error_ppm;   /* as the full calibration found them */
	unsigned samples;
	double span_ns, bracket_ns;
};

/* The cached rate of `counter` for this boot.  0, or -ENOENT (none, or
 * the cache is off), -ESTALE (another boot, counter or format), -EPERM (a
 * file or directory others may write), -errno. */
int hg_calcache_read(const char *counter, struct hg_calcache *c);
/* Keeps c for this boot (the directory is created, mode 0755).  0 or -errno. */
int hg_calcache_write(const char *counter, const struct hg_calcache *c);

#endif
