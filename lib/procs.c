/* procs.c: the live processes, from /proc/PID/stat. */
#include "config.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
