/* fload.h: what fload's files share: the load SPECs, the shared counters
 * the load processes write, the process groups fload starts, the guardian
 * and the built-in jobs.  Tool-local: nothing here is in lib/. */
#ifndef FLOAD_H
#define FLOAD_H

#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "sysinfo.h"
#include "tree.h"

#define FLOAD_CHUNK	(1024 * 1024)	/* io and read transfer size */
#define FLOAD_NAME_MAX	64

/* ---- the shared counters (loads.c) ---- */

/* Each load process adds its units to one slot (its index modulo the slot
 * count) with relaxed atomics: no lock, no pipe, and fload reads the sums
 * before and after the job.  Slots are cache lines so processes do not
 * bounce one line between CPUs.  The whole thing is one page. */
#define COUNTER_SLOTS 32

struct counter {
	_Atomic uint64_t ops;
	_Atomic uint64_t bytes;
	char pad[64 - 2 * sizeof(uint64_t)];
};

struct counters {
	struct counter load[COUNTER_SLOTS];
	struct counter job[COUNTER_SLOTS];
};

struct tally {
	uint64_t ops;
	uint64_t bytes;
};

static inline void
counter_add(struct counter *c, uint64_t ops, uint64_t bytes)
{
	if (ops)
		atomic_fetch_add_explicit(&c->ops, ops, memory_order_relaxed);
	if (bytes)
		atomic_fetch_add_explicit(&c->bytes, bytes, memory_order_relaxed);
}

struct counters *counters_map(void);
void counters_sum(const struct counter *slots, struct tally *t);

/* ---- process groups (proc.c) ---- */

/* One process group that fload started: a load's processes or the job. */
struct group {
	const char *what;	/* "load io", "job": for messages */
	pid_t pgid;		/* 0 when nothing runs */
	pid_t *pid;		/* the processes fload forked itself */
	bool *alive;
	size_t n;
	size_t cap;
	bool stopping;		/* deaths from now on are ours */
	bool failed;		/* a process died before we stopped it */
	char why[256];		/* how, for stderr and the metadata */
	struct rusage ru;	/* summed over every process reaped */
};

/* Run in a forked child: returns the exit status. */
typedef int (*proc_fn)(void *arg);

struct spawn {
	const char *name;	/* process name (comm) for a function child */
	int out_fd;		/* becomes stdout; -1 for /dev/null */
	const char *cwd;	/* NULL: keep fload's */
	proc_fn fn;		/* either a function ... */
	void *arg;
	char *const *argv;	/* ... or a command to exec */
};

/* Call first: the signal state the job and the loads are to inherit. */
void proc_save_signals(void);
void proc_init(void);
/* Commands without a cwd of their own run in the directory open as FD
 * (the user's), not in fload's, which is its own private directory. */
void proc_set_home(int fd);
pid_t proc_spawn(struct group *g, const struct spawn *s);
/* Collect what has exited in G without blocking; a process that dies
 * before G is stopping marks G failed.  Returns 1 when G's job process
 * JOB (if not 0) was among them, with its status and rusage. */
int proc_reap(struct group *g, pid_t job, int *status, struct rusage *ru);
/* SIGTERM the group, SIGKILL after GRACE_S, and reap every member. */
void proc_stop(struct group *g, double grace_s);
void proc_group_free(struct group *g);
/* Sleep in a signal wait until a child changes state, an INT/TERM/HUP
 * arrives, or DEADLINE_NS (0: none) passes.  Returns the signal or 0. */
int proc_wait(uint64_t deadline_ns);
/* Was fload asked to stop?  Also picks up a pending blocked signal. */
bool proc_interrupted(void);
/* Prepare a forked child: its own state, none of fload's. */
void proc_child_signals(void);

/* ---- the guardian (guard.c) ---- */

void guard_start(void);
/* Called by the first process of a group, in the child, before it starts
 * anyone; fload deletes the group once every member is reaped. */
void guard_add_group(pid_t pgid);
void guard_del_group(pid_t pgid);
void guard_set_dir(const char *path, dev_t dev, ino_t ino);
void guard_clear_dir(void);
/* In a forked child: drop the write end only fload may hold. */
void guard_child(void);
/* Tell the guardian all is clean and wait for it to go. */
void guard_finish(void);

/* ---- files (files.c; their removal is lib/tree's) ---- */

int dir_make(const char *path);
/* Write SIZE bytes of PATTERN (LEN bytes, repeated) to a new file PATH. */
struct progress;
int file_make(const char *path, uint64_t size, const unsigned char *pattern,
    size_t len, bool sync, struct progress *meter);
/* Drop the cached pages of every file under PATH (--drop fadvise). */
int tree_fadvise(const char *path, const struct fs_info *fs);
void fill_pattern(unsigned char *buf, size_t len, uint64_t seed);
void path_join(char *out, size_t len, const char *dir, const char *name);
void path_fmt(char *out, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* ---- the copy work of afdbench, shared by the copy load and job ---- */

struct copy_work {
	char src[4096];		/* the worker's set of files */
	char dst[4096];		/* where its fresh directories go */
	uint64_t files;
	uint64_t size;
	struct counter *count;
	bool loop;		/* a load goes on; the job does one pass */
	unsigned worker;
};

int copy_make_sources(const char *dir, uint64_t files, uint64_t size,
    uint64_t seed);
int copy_run(void *arg);

/* ---- loads (spec.c, loads.c) ---- */

struct load;
struct sizing;

/* What a load kind is: one row of load_kinds[] (loads.c) each.  A new
 * load is a row there and its run function; nothing else names kinds. */
#define LK_NOTHING	0x1	/* "none": runs no process */
#define LK_COMMAND	0x2	/* cmd:COMMAND, not NAME[:KEY=VALUE] */
#define LK_MEMORY	0x4	/* its size is memory (--dry-run says so) */
#define LK_PASSES	0x8	/* load_ops: passes over SIZE bytes, fractional */
#define LK_BYTES	0x10	/* it moves bytes: load_mib_per_s */

enum lk_procs {
	LK_ONE,			/* one process */
	LK_EACH,		/* procs= independent processes */
	LK_RING,		/* procs= processes passing messages round */
};

struct load_kind {
	const char *name;
	const char *keys;	/* the KEYs it takes, blank-separated */
	const char *help;	/* its --help form */
	unsigned flags;
	enum lk_procs procs;
	/* Defaults that depend on the machine (NULL: none); exits 1 on a
	 * size that cannot fit. */
	void (*resolve)(struct load *l, const struct sizing *sz, bool quiet);
	/* Bytes on disk for the whole invocation, and during one run
	 * (NULL: none). */
	uint64_t (*disk_kept)(const struct load *l, const struct sizing *sz);
	uint64_t (*disk_run)(const struct load *l, const struct sizing *sz);
	/* Make what it reads, once, in directory IN (NULL: nothing). */
	int (*prepare)(struct load *l, const char *in, bool quiet);
	/* Each of its processes; ARG is a struct load_worker. */
	int (*run)(void *arg);
};
extern const struct load_kind load_kinds[];
extern const size_t load_nkinds;

/* What one load process gets. */
struct load_worker {
	struct load *load;
	struct counter *count;
	uint64_t index;		/* 0 .. procs-1 */
	int in, out;		/* ring: the pipes */
};

struct load {
	const struct load_kind *kind;
	const char *spec;		/* as given */
	char name[FLOAD_NAME_MAX];	/* the load column */
	char key[FLOAD_NAME_MAX];	/* metadata key: load_KEY */
	bool size_given;
	uint64_t size;
	uint64_t procs;
	uint64_t files;
	uint64_t count;			/* files: files in the tree */
	uint64_t dirs;			/* files: directories they spread over */
	const char *dir;		/* list, absolute */
	const char *cmd;		/* cmd */
	char *keys;			/* the KEY=VALUE text values point into */
	char note[512];			/* how a default size was capped */
	char errors[512];		/* how it failed, run by run */
	char path[4096];		/* its own directory under fload's */
	struct copy_work *copy;		/* copy: one per process */
};

/* What sizes and defaults depend on. */
struct sizing {
	uint64_t mem_base;	/* --mem, else RAM: what N% means */
	uint64_t mem_bytes;	/* real RAM */
	uint64_t mem_avail;	/* MemAvailable + SwapFree */
	uint64_t free_bytes;	/* free space of --dir */
	uint64_t block_size;
	long cpus;
	bool no_space_check;
	const char *dirname;
};

/* Parse SPEC into L; on error returns -1 with a reason in ERR. */
int spec_parse(const char *spec, uint64_t mem_base, struct load *l,
    char *err, size_t errlen);
/* Fill defaults and refuse what cannot fit (exit 1). */
void spec_resolve(struct load *l, const struct sizing *sz, bool quiet);
/* Bytes that stay on disk for the whole invocation, and for one run. */
uint64_t spec_disk_kept(const struct load *l, const struct sizing *sz);
uint64_t spec_disk_run(const struct load *l, const struct sizing *sz);
/* The default sizes the rows of load_kinds[] use (spec.c). */
void spec_size_from_disk(struct load *l, const struct sizing *sz, bool quiet);
void spec_size_from_memory(struct load *l, const struct sizing *sz,
    bool quiet);
uint64_t spec_size_on_disk(const struct load *l, const struct sizing *sz);
uint64_t spec_files_on_disk(const struct load *l, const struct sizing *sz);
/* A line for the metadata: what the load was, resolved. */
void spec_describe(const struct load *l, char *buf, size_t len);

int load_prepare(struct load *l, const char *topdir, int index, bool quiet);
int load_reset(struct load *l);
int load_start(struct load *l, struct group *g, struct counters *c);
/* The load's unit count from a tally, and whether it moves bytes. */
double load_ops(const struct load *l, const struct tally *t);
bool load_has_bytes(const struct load *l);

/* ---- the job (job.c, build.c) ---- */

enum job_kind { JOB_COMMAND, JOB_BUILD, JOB_COPY };

struct job {
	enum job_kind kind;
	char *const *argv;	/* JOB_COMMAND */
	uint64_t size;		/* --job-size: files */
	uint64_t file_size;
	long workers;
	char path[4096];	/* its directory under fload's */
	struct copy_work *copy;
	struct counters *count;
};

uint64_t job_disk_kept(const struct job *j, const struct sizing *sz);
uint64_t job_disk_run(const struct job *j, const struct sizing *sz);
int job_prepare(struct job *j, const char *topdir);
int job_reset(struct job *j);
pid_t job_spawn(struct job *j, struct group *g);
void job_describe(const struct job *j, char *buf, size_t len);

int build_make_tree(const char *dir, uint64_t files, uint64_t size);
int build_run(void *arg);

/* ---- /proc/stat (cpustat.c) ---- */

struct cpustat {
	uint64_t total;
	uint64_t idle;
	uint64_t iowait;
	bool ok;
};

void cpustat_read(struct cpustat *s);
/* Percent of all CPU time between A and B spent idle / in iowait. */
double cpustat_pct(const struct cpustat *a, const struct cpustat *b,
    bool iowait);

#endif
