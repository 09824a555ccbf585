/* procs.c: the live processes, from /proc/PID/stat. */
#include "config.h"

#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "procs.h"

/* PATH's "PID (COMM) STATE PPID PGRP ..." into E; -1 for a zombie, a
 * process gone meanwhile or a line that does not parse. */
static int
read_stat(const char *path, struct procs_entry *e)
{
	char line[1024], *p, state;
	long pid, ppid, pgrp;
	FILE *f;

	if ((f = fopen(path, "re")) == NULL)
		return -1;
	p = fgets(line, sizeof(line), f);
	fclose(f);
	/* COMM may hold anything, a ')' too: the last one ends it. */
	if (p == NULL || sscanf(line, "%ld", &pid) != 1 ||
	    (p = strrchr(line, ')')) == NULL ||
	    sscanf(p + 1, " %c %ld %ld", &state, &ppid, &pgrp) != 3 ||
	    state == 'Z' || state == 'X')
		return -1;
	e->pid = (pid_t)pid;
	e->ppid = (pid_t)ppid;
	e->pgrp = (pid_t)pgrp;
	return 0;
}

int
procs_each(int (*fn)(const struct procs_entry *, void *), void *arg)
{
	char path[300];
	struct procs_entry pe;
	struct dirent *e;
	DIR *d;
	int r = 0;

	if ((d = opendir("/proc")) == NULL)
		return -1;
	while (r == 0 && (e = readdir(d)) != NULL) {
		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
		if (read_stat(path, &pe) == 0)
			r = fn(&pe, arg);
	}
	closedir(d);
	return r;
}

int
procs_mount_ns(pid_t pid, dev_t *dev, ino_t *ino)
{
	char path[64];
	struct stat st;

	if (pid == 0)
		snprintf(path, sizeof(path), "/proc/self/ns/mnt");
	else
		snprintf(path, sizeof(path), "/proc/%ld/ns/mnt", (long)pid);
	if (stat(path, &st) == -1)
		return -1;
	*dev = st.st_dev;
	*ino = st.st_ino;
	return 0;
}

struct ns_kill {
	dev_t dev;
	ino_t ino;
	int sig;
	pid_t self;
	int count;
};

static int
signal_if_in_ns(const struct procs_entry *e, void *arg)
{
	struct ns_kill *k = arg;
	dev_t dev;
	ino_t ino;

	/* Never this process, nor init: neither can be the namespace's
	 * leftover, whatever /proc says in a moment of change. */
	if (e->pid == k->self || e->pid == 1 ||
	    procs_mount_ns(e->pid, &dev, &ino) == -1 ||
	    dev != k->dev || ino != k->ino)
		return 0;
	if (kill(e->pid, k->sig) == 0)
		k->count++;
	return 0;
}

int
procs_signal_mount_ns(dev_t dev, ino_t ino, int sig)
{
	struct ns_kill k = { dev, ino, sig, getpid(), 0 };

	if (procs_each(signal_if_in_ns, &k) == -1)
		return -1;
	return k.count;
}
