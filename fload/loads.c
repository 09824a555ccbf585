/* loads.c: the background loads of contest (process, io, read, mem, list),
 * seed 004's copy load and cmd: loads.  Each runs in processes of its own
 * group until fload stops it, counting its units into the shared page. */
#include "cli.h"
#include "config.h"

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fload.h"
#include "progress.h"
#include "xio.h"
#include "xalloc.h"

#define RING_MSG 512	/* under PIPE_BUF: each message moves whole */

struct counters *
counters_map(void)
{
	struct counters *c;

	/* MAP_SHARED and anonymous: the load processes fork from us and
	 * write to the same page; no pipe, no file. */
	c = mmap(NULL, sizeof(*c), PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (c == MAP_FAILED)
		err(EXIT_RUN_FAILED, "mmap");
	return c;
}

void
counters_sum(const struct counter *slots, struct tally *t)
{
	int i;

	t->ops = t->bytes = 0;
	for (i = 0; i < COUNTER_SLOTS; i++) {
		t->ops += atomic_load_explicit(&slots[i].ops, memory_order_relaxed);
		t->bytes += atomic_load_explicit(&slots[i].bytes,
		    memory_order_relaxed);
	}
}


/* ---- process: a ring of pipes ---- */

static int
read_msg(int fd, char *buf)
{
	size_t got = 0;
	ssize_t n;

	while (got < RING_MSG) {
		n = read(fd, buf + got, RING_MSG - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		got += (size_t)n;
	}
	return 0;
}

static int
ring_run(void *arg)
{
	struct load_worker *w = arg;
	char msg[RING_MSG];

	/* One message each in flight: every process has work at once. */
	memset(msg, 'p', sizeof(msg));
	if (xio_write_all(w->out, msg, sizeof(msg)) < 0)
		return 1;
	for (;;) {
		if (read_msg(w->in, msg) < 0 ||
		    xio_write_all(w->out, msg, sizeof(msg)) < 0) {
			warn("load process: ring broken");
			return 1;
		}
		counter_add(w->count, 1, RING_MSG);
	}
}

/* ---- io: write a file of SIZE again and again ---- */

static int
io_run(void *arg)
{
	struct load_worker *w = arg;
	struct load *l = w->load;
	unsigned char *buf;
	char path[4096 + 16];
	uint64_t done;
	size_t n;
	int fd;

	buf = malloc(FLOAD_CHUNK);
	if (buf == NULL)
		return 1;
	fill_pattern(buf, FLOAD_CHUNK, 0x10);
	path_fmt(path, sizeof(path), "%s/work/io", l->path);
	for (;;) {
		/* As contest's dd did: truncate and write again, no fsync;
		 * writeback is what competes with the job. */
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW |
		    O_CLOEXEC, 0600);
		if (fd < 0) {
			warn("load io: %s", path);
			return 1;
		}
		for (done = 0; done < l->size; done += n) {
			n = l->size - done < FLOAD_CHUNK ? (size_t)(l->size - done) :
			    FLOAD_CHUNK;
			if (xio_write_all(fd, buf, n) < 0) {
				warn("load io: write %s", path);
				return 1;
			}
			counter_add(w->count, 0, n);
		}
		if (close(fd) < 0) {
			warn("load io: close %s", path);
			return 1;
		}
	}
}

/* ---- read: read a file of SIZE again and again ---- */

static int
read_run(void *arg)
{
	struct load_worker *w = arg;
	struct load *l = w->load;
	char path[4096 + 16], *buf;
	uint64_t off;
	int fd;

	path_fmt(path, sizeof(path), "%s/in/data", l->path);
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		warn("load read: %s", path);
		return 1;
	}
	/* The load runs until it is killed: this is never freed. */
	buf = malloc(FLOAD_CHUNK);
	if (buf == NULL) {
		close(fd);
		return 1;
	}
	for (;;) {
		for (off = 0; off < l->size; off += FLOAD_CHUNK) {
			size_t n = l->size - off < FLOAD_CHUNK ?
			    (size_t)(l->size - off) : FLOAD_CHUNK;

			if (xio_pread_all(fd, buf, n, (off_t)off) < 0) {
				warn("load read: %s", path);
				return 1;
			}
			counter_add(w->count, 0, n);
		}
		/* Each pass from the device, not from a warm cache, even
		 * when the file is smaller than memory. */
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	}
}

/* ---- mem: touch SIZE of memory in a cache-unfriendly order ---- */

static uint64_t
gcd(uint64_t a, uint64_t b)
{
	while (b != 0) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

static int
mem_run(void *arg)
{
	struct load_worker *w = arg;
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	uint64_t npages = w->load->size / page, stride, idx = 0, i;
	unsigned char *mem;

	mem = mmap(NULL, npages * page, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED) {
		warn("load mem: cannot map %" PRIu64 " bytes", npages * page);
		return 1;
	}
	/* Page by page with a stride near n/phi, coprime with n: every page
	 * once a pass, no two neighbours in a row, no prefetcher help. */
	stride = npages * 618 / 1000;
	if (stride == 0)
		stride = 1;
	while (gcd(stride, npages) != 1)
		stride++;
	for (;;) {
		for (i = 0; i < npages; i++) {
			idx += stride;
			if (idx >= npages)
				idx -= npages;
			mem[idx * page]++;	/* dirty: it must go to swap */
			if ((i & 63) == 63)
				counter_add(w->count, 0, 64 * page);
		}
		counter_add(w->count, 0, (npages & 63) * page);
	}
}

/* ---- list: walk and stat a tree again and again ---- */

static struct counter *list_count;

static int
list_entry(const char *path, const struct stat *st, int type, struct FTW *f)
{
	(void)path;
	(void)st;
	(void)type;
	(void)f;
	counter_add(list_count, 1, 0);
	return 0;
}

static int
list_run(void *arg)
{
	struct load_worker *w = arg;

	list_count = w->count;
	for (;;)
		if (nftw(w->load->dir, list_entry, 32, FTW_PHYS) < 0) {
			warn("load list: %s", w->load->dir);
			return 1;
		}
}

/* ---- files: create, stat and unlink many small files in a tree ---- */

/* bonnie++ -n's work, again and again: COUNT files of SIZE bytes spread
 * over DIRS directories are created (and written), then each is stat'ed,
 * then each unlinked; a file counts once it went through all three.
 * Everything by descriptor under the load's work directory. */
static int
files_run(void *arg)
{
	struct load_worker *w = arg;
	struct load *l = w->load;
	size_t chunk = l->size < FLOAD_CHUNK ? (size_t)l->size : FLOAD_CHUNK;
	char path[4096 + 16], name[32];
	unsigned char *buf;
	struct stat st;
	uint64_t i, done;
	int top, *dfd, fd;

	path_fmt(path, sizeof(path), "%s/work", l->path);
	top = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	/* The load runs until it is killed: these are never freed. */
	buf = malloc(chunk);
	dfd = calloc(l->dirs, sizeof(*dfd));
	if (top < 0 || buf == NULL || dfd == NULL) {
		warn("load files: %s", path);
		goto fail;
	}
	fill_pattern(buf, chunk, 0x30);
	for (i = 0; i < l->dirs; i++) {
		snprintf(name, sizeof(name), "d%05" PRIu64, i);
		if (mkdirat(top, name, 0700) < 0 || (dfd[i] = openat(top, name,
		    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0) {
			warn("load files: %s/%s", path, name);
			goto fail;
		}
	}
	for (;;) {
		for (i = 0; i < l->count; i++) {
			snprintf(name, sizeof(name), "f%08" PRIu64, i);
			fd = openat(dfd[i % l->dirs], name, O_WRONLY | O_CREAT |
			    O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
			if (fd < 0) {
				warn("load files: create %s", name);
				goto fail;
			}
			for (done = 0; done < l->size; done += chunk) {
				size_t n = l->size - done < chunk ?
				    (size_t)(l->size - done) : chunk;

				if (xio_write_all(fd, buf, n) < 0) {
					warn("load files: write %s", name);
					goto fail;
				}
			}
			if (close(fd) < 0) {
				warn("load files: close %s", name);
				goto fail;
			}
		}
		for (i = 0; i < l->count; i++) {
			snprintf(name, sizeof(name), "f%08" PRIu64, i);
			if (fstatat(dfd[i % l->dirs], name, &st,
			    AT_SYMLINK_NOFOLLOW) < 0) {
				warn("load files: stat %s", name);
				goto fail;
			}
		}
		for (i = 0; i < l->count; i++) {
			snprintf(name, sizeof(name), "f%08" PRIu64, i);
			if (unlinkat(dfd[i % l->dirs], name, 0) < 0) {
				warn("load files: unlink %s", name);
				goto fail;
			}
			counter_add(w->count, 1, 0);
		}
	}fail:
	/* The process ends here; the analyzers want the memory back. */
	if (top >= 0)
		close(top);
	free(buf);
	free(dfd);
	return 1;
}

/* ---- cmd: any command again and again ---- */

static volatile sig_atomic_t cmd_stop;

static void
on_term(int sig)
{
	(void)sig;
	cmd_stop = 1;
}

static int
cmd_run(void *arg)
{
	struct load_worker *w = arg;
	struct sigaction sa;
	int status;
	pid_t pid, r;

	/* SIGTERM reaches the command too (same group); we wait for it so
	 * its CPU time is in ours when fload reaps us. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_term;
	sigaction(SIGTERM, &sa, NULL);
	while (!cmd_stop) {
		pid = fork();
		if (pid < 0) {
			warn("load %s: fork", w->load->name);
			return 1;
		}
		if (pid == 0) {
			signal(SIGTERM, SIG_DFL);
			execl("/bin/sh", "sh", "-c", w->load->cmd, (char *)NULL);
			warn("load %s: /bin/sh", w->load->name);
			_exit(127);
		}
		while ((r = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
			;
		if (r < 0 || cmd_stop)
			break;
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			/* Going on would spin on a command that cannot run. */
			if (WIFSIGNALED(status))
				warnx("load %s: '%s' killed by signal %d",
				    w->load->name, w->load->cmd, WTERMSIG(status));
			else
				warnx("load %s: '%s' exited with status %d",
				    w->load->name, w->load->cmd, WEXITSTATUS(status));
			return 1;
		}
		counter_add(w->count, 1, 0);
	}
	return 0;
}

/* ---- starting and accounting ---- */

static char *
make_path(const char *dir, const char *name)
{
	char *p;

	if (asprintf(&p, "%s/%s", dir, name) < 0)
		err(EXIT_RUN_FAILED, "out of memory");
	return p;
}

/* read: the file it reads, made once. */
static int
read_prepare(struct load *l, const char *in, bool quiet)
{
	struct progress meter;
	unsigned char *pattern;
	char *data;
	int rc;

	pattern = xmalloc(FLOAD_CHUNK);
	fill_pattern(pattern, FLOAD_CHUNK, 0x20);
	data = make_path(in, "data");
	progress_start(&meter, "fload: making the read load's file", l->size,
	    quiet);
	rc = file_make(data, l->size, pattern, FLOAD_CHUNK, true, &meter);
	progress_end(&meter);
	free(data);
	free(pattern);
	return rc;
}

/* copy: each process's set of source files. */
static int
copy_prepare(struct load *l, const char *in, bool quiet)
{
	char name[64], *src;
	uint64_t k;
	int rc = 0;

	(void)quiet;
	l->copy = xcalloc(l->procs, sizeof(*l->copy));
	for (k = 0; k < l->procs && rc == 0; k++) {
		snprintf(name, sizeof(name), "w%" PRIu64, k);
		src = make_path(in, name);
		rc = copy_make_sources(src, l->files, l->size, 0x4000 + k);
		path_fmt(l->copy[k].src, sizeof(l->copy[k].src), "%s", src);
		free(src);
	}
	return rc;
}

int
load_prepare(struct load *l, const char *topdir, int index, bool quiet)
{
	char name[64], *in;
	int rc = 0;

	snprintf(name, sizeof(name), "L%d-%s", index, l->kind->name);
	path_join(l->path, sizeof(l->path), topdir, name);
	in = make_path(l->path, "in");
	if (dir_make(l->path) < 0 || dir_make(in) < 0) {
		free(in);
		return -1;
	}
	if (l->kind->prepare != NULL)
		rc = l->kind->prepare(l, in, quiet);
	free(in);
	return rc;
}

/* Each run starts from the same state: the load's work directory is made
 * afresh (what a killed load wrote is gone). */
int
load_reset(struct load *l)
{
	char work[4096 + 8];

	path_fmt(work, sizeof(work), "%s/work", l->path);
	if (tree_remove(work) < 0)
		return -1;
	return dir_make(work);
}

static int
start_ring(struct load *l, struct group *g, struct counters *c,
    const struct spawn *proto)
{
	struct load_worker w = { .load = l };
	struct spawn s = *proto;
	int first[2], next[2], in;
	uint64_t i;

	/* Process i reads pipe i and writes pipe i+1; the last writes the
	 * first.  fload holds at most two pipes at a time. */
	if (pipe2(first, O_CLOEXEC) < 0)
		return -1;
	in = first[0];
	s.arg = &w;
	for (i = 0; i < l->procs; i++) {
		if (i + 1 < l->procs) {
			if (pipe2(next, O_CLOEXEC) < 0)
				break;
		} else {
			next[0] = -1;
			next[1] = first[1];
		}
		w.in = in;
		w.out = next[1];
		w.count = &c->load[i % COUNTER_SLOTS];
		if (proc_spawn(g, &s) < 0)
			break;
		close(in);
		close(next[1]);
		in = next[0];
	}
	if (i < l->procs) {
		if (in >= 0)
			close(in);
		return -1;
	}
	return 0;
}

/* copy: the worker's set of files, copied afresh into the work
 * directory until fload stops it. */
static int
copy_load_run(void *arg)
{
	struct load_worker *w = arg;
	struct copy_work *cw = &w->load->copy[w->index];

	path_fmt(cw->dst, sizeof(cw->dst), "%s/work", w->load->path);
	cw->files = w->load->files;
	cw->size = w->load->size;
	cw->count = w->count;
	cw->loop = true;
	cw->worker = (unsigned)w->index;
	return copy_run(cw);
}

int
load_start(struct load *l, struct group *g, struct counters *c)
{
	static char name[32];
	struct spawn s;
	struct load_worker w = { .load = l, .count = &c->load[0] };
	char work[4096 + 8];
	uint64_t k;

	if (l->kind->flags & LK_NOTHING)
		return 0;
	memset(&s, 0, sizeof(s));
	snprintf(name, sizeof(name), "fload-%s", l->kind->name);
	path_fmt(work, sizeof(work), "%s/work", l->path);
	s.name = name;
	s.out_fd = -1;
	s.cwd = work;
	s.arg = &w;
	s.fn = l->kind->run;
	switch (l->kind->procs) {
	case LK_RING:
		return start_ring(l, g, c, &s);
	case LK_EACH:
		for (k = 0; k < l->procs; k++) {
			w.index = k;
			w.count = &c->load[k % COUNTER_SLOTS];
			if (proc_spawn(g, &s) < 0)
				return -1;
		}
		return 0;
	case LK_ONE:
		break;
	}
	return proc_spawn(g, &s) < 0 ? -1 : 0;
}

double
load_ops(const struct load *l, const struct tally *t)
{
	/* passes, fractional: how far the last one got */
	if (l->kind->flags & LK_PASSES)
		return (double)t->bytes / (double)l->size;
	return (double)t->ops;
}

bool
load_has_bytes(const struct load *l)
{
	return (l->kind->flags & LK_BYTES) != 0;
}

/* ---- the loads ---- */

static void
resolve_procs(struct load *l, const struct sizing *sz, bool quiet)
{
	(void)quiet;
	if (l->procs == 0)
		l->procs = 4 * (uint64_t)sz->cpus;
}

static void
resolve_list(struct load *l, const struct sizing *sz, bool quiet)
{
	(void)sz, (void)quiet;
	if (l->dir == NULL)
		l->dir = "/usr";
}

static void
resolve_copy(struct load *l, const struct sizing *sz, bool quiet)
{
	(void)quiet;
	if (l->procs == 0)
		l->procs = 2 * (uint64_t)sz->cpus;
	if (l->files == 0)
		l->files = 1000;
	if (!l->size_given)
		l->size = 16 * 1024;
}

static void
resolve_files(struct load *l, const struct sizing *sz, bool quiet)
{
	(void)sz, (void)quiet;
	if (l->count == 0)
		l->count = 1000;
	if (l->dirs == 0)
		l->dirs = 10;
	if (!l->size_given)
		l->size = 4096;
}

static uint64_t
files_on_disk(const struct load *l, const struct sizing *sz)
{
	return l->count * ((l->size + sz->block_size - 1) / sz->block_size *
	    sz->block_size);
}

/* mem touches a byte a page: it sweeps memory, it moves no bytes; files
 * counts files, whose few bytes are not the point. */
const struct load_kind load_kinds[] = {
	{ "none", "", "none", LK_NOTHING, LK_ONE,
	    NULL, NULL, NULL, NULL, NULL },
	{ "process", "procs", "process[:procs=N]", LK_BYTES, LK_RING,
	    resolve_procs, NULL, NULL, NULL, ring_run },
	{ "io", "size", "io[:size=SIZE]", LK_PASSES | LK_BYTES, LK_ONE,
	    spec_size_from_disk, NULL, spec_size_on_disk, NULL, io_run },
	{ "read", "size", "read[:size=SIZE]", LK_PASSES | LK_BYTES, LK_ONE,
	    spec_size_from_disk, spec_size_on_disk, NULL, read_prepare,
	    read_run },
	{ "mem", "size", "mem[:size=SIZE]", LK_PASSES | LK_MEMORY, LK_ONE,
	    spec_size_from_memory, NULL, NULL, NULL, mem_run },
	{ "list", "dir", "list[:dir=DIR]", 0, LK_ONE,
	    resolve_list, NULL, NULL, NULL, list_run },
	{ "copy", "procs files size", "copy[:procs=N:files=N:size=SIZE]",
	    LK_BYTES, LK_EACH, resolve_copy, spec_files_on_disk,
	    spec_files_on_disk, copy_prepare, copy_load_run },
	{ "files", "count size dirs", "files[:count=N:size=SIZE:dirs=N]", 0,
	    LK_ONE, resolve_files, NULL, files_on_disk, NULL, files_run },
	{ "cmd", "", "cmd:COMMAND", LK_COMMAND, LK_ONE,
	    NULL, NULL, NULL, NULL, cmd_run },
};
const size_t load_nkinds = sizeof(load_kinds) / sizeof(load_kinds[0]);
