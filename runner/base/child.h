/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A short-lived helper child that writes its answer to a pipe, waited for
 * with a bound: a child that hangs (a fork under qemu-user can stop at its
 * first system call, docs/arm64.md) is killed after timeout_ms, and a stop
 * signal the caller keeps blocked and pending (SIGINT, SIGTERM, SIGHUP,
 * SIGQUIT: a run blocks them from its start, runner/run/run.c) ends the wait
 * at once, so the run takes it within ~50 ms instead of never. */
#ifndef HG_CHILD_H
#define HG_CHILD_H

#include <stddef.h>
#include <sys/types.h>

/* Reads what child pid writes to fd (the pipe's read end) until it closes
 * the pipe, size - 1 bytes are in, timeout_ms pass or a stop signal is
 * pending.  Always reaps the child (SIGKILL first unless it closed the pipe)
 * and closes fd; buf is NUL-terminated.  Returns the bytes read (>= 0),
 * -ETIMEDOUT, -EINTR (a stop signal is pending; it stays pending) or
 * -errno of poll/read. */
ssize_t hg_child_read(pid_t pid, int fd, char *buf, size_t size, unsigned timeout_ms);

/* Whether SIGINT, SIGTERM, SIGHUP or SIGQUIT is pending for this thread or
 * the process. */
int hg_stop_signal_pending(void);

#endif
