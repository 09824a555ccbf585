/* procs.h: the live processes, read from /proc: who is whose child and in
 * which group.  fload's guardian and fhosts-agent --contain use it to
 * find what is left to kill. */
#ifndef FSBENCH_PROCS_H
#define FSBENCH_PROCS_H

#include <sys/types.h>

struct procs_entry {
	pid_t pid;
	pid_t ppid;
	pid_t pgrp;
};

/* Call FN for each live process (zombies are left out: an init that does
 * not reap keeps them forever) until FN returns nonzero.  Returns FN's
 * nonzero value, 0 when every process was seen, or -1 without /proc (a
 * bare chroot). */
int procs_each(int (*fn)(const struct procs_entry *, void *), void *arg);

#endif
