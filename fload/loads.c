/* loads.c: the background loads of contest (process, io, read, mem, list),
 * seed 004's copy load and cmd: loads.  Each runs in processes of its own
 * group until fload stops it, counting its units into the shared page. */
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
#include <sys/wait.h>
#include <unistd.h>

#include "fload.h"
#include "progress.h"
#include "xio.h"

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
		err(1, "mmap");
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

/* What one load process gets. */
struct worker {
	struct load *load;
	struct counter *count;
	int in;
	int out;
};

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
	struct worker *w = arg;
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
	struct worker *w = arg;
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
	struct worker *w = arg;
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
	struct worker *w = arg;
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
	struct worker *w = arg;

	list_count = w->count;
	for (;;)
		if (nftw(w->load->dir, list_entry, 32, FTW_PHYS) < 0) {
			warn("load list: %s", w->load->dir);
			return 1;
		}
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
	struct worker *w = arg;
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
		err(1, "out of memory");
	return p;
}

int
load_prepare(struct load *l, const char *topdir, int index, bool quiet)
{
	struct progress meter;
	unsigned char *pattern;
	char name[64], *in, *data, *src;
	uint64_t k;
	int rc = 0;

	snprintf(name, sizeof(name), "L%d-%s", index, spec_kind_name(l->kind));
	path_join(l->path, sizeof(l->path), topdir, name);
	in = make_path(l->path, "in");
	if (dir_make(l->path) < 0 || dir_make(in) < 0) {
		free(in);
		return -1;
	}
	if (l->kind == LOAD_READ) {
		pattern = malloc(FLOAD_CHUNK);
		if (pattern == NULL)
			err(1, "out of memory");
		fill_pattern(pattern, FLOAD_CHUNK, 0x20);
		data = make_path(in, "data");
		progress_start(&meter, "fload: making the read load's file",
		    l->size, quiet);
		rc = file_make(data, l->size, pattern, FLOAD_CHUNK, true, &meter);
		progress_end(&meter);
		free(data);
		free(pattern);
	}
	if (l->kind == LOAD_COPY) {
		l->copy = calloc(l->procs, sizeof(*l->copy));
		if (l->copy == NULL)
			err(1, "out of memory");
		for (k = 0; k < l->procs && rc == 0; k++) {
			snprintf(name, sizeof(name), "w%" PRIu64, k);
			src = make_path(in, name);
			rc = copy_make_sources(src, l->files, l->size, 0x4000 + k);
			path_fmt(l->copy[k].src, sizeof(l->copy[k].src), "%s", src);
			free(src);
		}
	}
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
	struct worker w = { .load = l };
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

int
load_start(struct load *l, struct group *g, struct counters *c)
{
	static char name[16];
	struct spawn s;
	struct worker w = { .load = l, .count = &c->load[0] };
	char work[4096 + 8];
	uint64_t k;

	memset(&s, 0, sizeof(s));
	snprintf(name, sizeof(name), "fload-%s", spec_kind_name(l->kind));
	path_fmt(work, sizeof(work), "%s/work", l->path);
	s.name = name;
	s.out_fd = -1;
	s.cwd = work;
	s.arg = &w;
	switch (l->kind) {
	case LOAD_NONE:
		return 0;
	case LOAD_PROCESS:
		s.fn = ring_run;
		return start_ring(l, g, c, &s);
	case LOAD_IO:
		s.fn = io_run;
		break;
	case LOAD_READ:
		s.fn = read_run;
		break;
	case LOAD_MEM:
		s.fn = mem_run;
		break;
	case LOAD_LIST:
		s.fn = list_run;
		break;
	case LOAD_CMD:
		s.fn = cmd_run;
		break;
	case LOAD_COPY:
		s.fn = copy_run;
		for (k = 0; k < l->procs; k++) {
			struct copy_work *cw = &l->copy[k];

			path_fmt(cw->dst, sizeof(cw->dst), "%s", work);
			cw->files = l->files;
			cw->size = l->size;
			cw->count = &c->load[k % COUNTER_SLOTS];
			cw->loop = true;
			cw->worker = (unsigned)k;
			s.arg = cw;
			if (proc_spawn(g, &s) < 0)
				return -1;
		}
		return 0;
	}
	return proc_spawn(g, &s) < 0 ? -1 : 0;
}

double
load_ops(const struct load *l, const struct tally *t)
{
	switch (l->kind) {
	case LOAD_IO:
	case LOAD_READ:
	case LOAD_MEM:
		/* files or passes, fractional: how far the last one got */
		return (double)t->bytes / (double)l->size;
	default:
		return (double)t->ops;
	}
}

bool
load_has_bytes(const struct load *l)
{
	/* mem touches a byte a page: it sweeps memory, it moves no bytes */
	return l->kind == LOAD_PROCESS || l->kind == LOAD_IO ||
	    l->kind == LOAD_READ || l->kind == LOAD_COPY;
}
