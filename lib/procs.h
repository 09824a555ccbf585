/* procs.h: the live processes, read from /proc: who is whose child and in
 * which group and mount namespace.  fload's guardian and fhosts-agent
 * --contain use it to find what is left to kill; fcrash and fmatrix, what
 * is left in the namespace they mount in. */
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

/* The mount namespace PID is in (0 for this process), as the device and
 * inode of /proc/PID/ns/mnt; -1 when it cannot be read. */
int procs_mount_ns(pid_t pid, dev_t *dev, ino_t *ino);
/* Send SIG to every live process in the mount namespace DEV:INO but this
 * one; returns how many were signalled, or -1 without /proc. */
int procs_signal_mount_ns(dev_t dev, ino_t ino, int sig);

#endif
