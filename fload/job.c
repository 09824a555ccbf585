/* job.c: the benchmarked job: the user's COMMAND, or a built-in one (build
 * or copy) made ready before timing starts and reset between runs.  It
 * runs in a process group of its own; wait4 gives its time and faults. */
#include "config.h"

#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fload.h"
#include "xalloc.h"

static uint64_t
round_up(uint64_t v, uint64_t unit)
{
	return (v + unit - 1) / unit * unit;
}

uint64_t
job_disk_kept(const struct job *j, const struct sizing *sz)
{
	if (j->kind == JOB_COMMAND)
		return 0;
	return j->size * round_up(j->file_size, sz->block_size);
}

uint64_t
job_disk_run(const struct job *j, const struct sizing *sz)
{
	if (j->kind == JOB_BUILD)	/* objects and a.out */
		return j->size * round_up(j->file_size / 4, sz->block_size) +
		    j->size * (j->file_size / 4);
	if (j->kind == JOB_COPY)
		return j->size * round_up(j->file_size, sz->block_size);
	return 0;
}

static uint64_t
share(const struct job *j, long w)
{
	return j->size / (uint64_t)j->workers +
	    ((uint64_t)w < j->size % (uint64_t)j->workers ? 1 : 0);
}

int
job_prepare(struct job *j, const char *topdir)
{
	char path[4096 + 64];
	long w;

	path_join(j->path, sizeof(j->path), topdir, "job");
	if (dir_make(j->path) < 0)
		return -1;
	if (j->kind == JOB_BUILD)
		return build_make_tree(j->path, j->size, j->file_size);
	if (j->kind != JOB_COPY)
		return 0;
	path_fmt(path, sizeof(path), "%s/in", j->path);
	if (dir_make(path) < 0)
		return -1;
	j->copy = xcalloc((size_t)j->workers, sizeof(*j->copy));
	for (w = 0; w < j->workers; w++) {
		struct copy_work *cw = &j->copy[w];

		path_fmt(cw->src, sizeof(cw->src), "%s/in/w%ld", j->path, w);
		path_fmt(cw->dst, sizeof(cw->dst), "%s/work", j->path);
		cw->files = share(j, w);
		cw->size = j->file_size;
		cw->count = &j->count->job[w % COUNTER_SLOTS];
		cw->loop = false;
		cw->worker = (unsigned)w;
		if (copy_make_sources(cw->src, cw->files, cw->size,
		    0x8000 + (uint64_t)w) < 0)
			return -1;
	}
	return 0;
}

/* Every run starts from the same files: no objects, no copies. */
int
job_reset(struct job *j)
{
	char path[4096 + 64];

	if (j->kind == JOB_COMMAND)
		return 0;
	path_fmt(path, sizeof(path), "%s/%s", j->path,
	    j->kind == JOB_BUILD ? "obj" : "work");
	if (tree_remove(path) < 0 || dir_make(path) < 0)
		return -1;
	if (j->kind == JOB_BUILD) {
		path_fmt(path, sizeof(path), "%s/a.out", j->path);
		if (unlink(path) < 0 && errno != ENOENT) {
			warn("%s", path);
			return -1;
		}
	}
	return 0;
}

/* The copy job: afdbench's workers each copy their share once. */
static int
copy_job_run(void *arg)
{
	struct job *j = arg;
	int status, rc = 0;
	pid_t pid;
	long w;

	for (w = 0; w < j->workers; w++) {
		if (j->copy[w].files == 0)
			continue;
		pid = fork();
		if (pid < 0) {
			warn("copy: fork");
			rc = 1;
			break;
		}
		if (pid == 0)
			_exit(copy_run(&j->copy[w]));
	}
	while ((pid = wait(&status)) > 0 || (pid < 0 && errno == EINTR))
		if (pid > 0 && (!WIFEXITED(status) || WEXITSTATUS(status) != 0))
			rc = 1;
	return rc;
}

pid_t
job_spawn(struct job *j, struct group *g)
{
	struct spawn s;

	memset(&s, 0, sizeof(s));
	s.out_fd = 2;
	s.arg = j;
	switch (j->kind) {
	case JOB_COMMAND:
		s.argv = j->argv;
		break;
	case JOB_BUILD:
		s.name = "fload-build";
		s.fn = build_run;
		break;
	case JOB_COPY:
		s.name = "fload-copy";
		s.fn = copy_job_run;
		break;
	}
	return proc_spawn(g, &s);
}

void
job_describe(const struct job *j, char *buf, size_t len)
{
	switch (j->kind) {
	case JOB_COMMAND:
		buf[0] = '\0';	/* the caller quotes argv */
		break;
	case JOB_BUILD:
		snprintf(buf, len, "build: %" PRIu64 " files of %" PRIu64
		    " bytes, %ld workers", j->size, j->file_size, j->workers);
		break;
	case JOB_COPY:
		snprintf(buf, len, "copy: %" PRIu64 " files of %" PRIu64
		    " bytes, %ld workers", j->size, j->file_size, j->workers);
		break;
	}
}
