/* run.h: child processes that a tool waits for while it owns mounts:
 * termination signals are blocked and taken at known points, forwarded to
 * the child (or its group), so cleanup never races a handler.  Used by
 * fmatrix and fcrash. */
#ifndef FSBENCH_RUN_H
#define FSBENCH_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "sig.h"

/* Block the termination signals and SIGCHLD; they are taken by run_wait
 * and run_pending so cleanup never races a handler. */
void run_init_signals(void);
/* Start ARGV with stdout/stderr to OUTFD (-1: inherit), stdin from
 * /dev/null when NULL_STDIN, FSBENCH_LABEL=LABEL when LABEL is not NULL,
 * in a process group of its own when NEWPGRP.  Returns the pid or -1. */
pid_t run_spawn(char *const argv[], int outfd, bool null_stdin,
    const char *label, bool newpgrp);
/* Wait for PID and return its wait status.  A termination signal meanwhile
 * is forwarded to the child (its group when GROUP), then SIGKILL after a
 * grace period or a second signal; sig_caught (lib/sig) records it. */
int run_wait(pid_t pid, bool group);
/* Take a termination signal that arrived while blocked; 0 when none. */
int run_pending(void);
/* Whether process group PGID still has a live member (zombies reaped). */
int run_group_alive(pid_t pgid);
/* Kill what is left of process group PGID (SIGTERM, then SIGKILL). */
void run_kill_group(pid_t pgid);
/* Describe wait status ST ("exited with status 3", "killed by SIGKILL"). */
void run_describe(int st, char *buf, size_t len);
/* CMD (NULL-terminated) with every {} in its words replaced by WITH, in
 * new memory (exits when out of memory); free with run_free_argv. */
char **run_braced_argv(char *const cmd[], const char *with);
void run_free_argv(char **argv);
/* Find CMD the way execvp will: 0 when found and executable. */
int run_find_command(const char *cmd);

#endif
