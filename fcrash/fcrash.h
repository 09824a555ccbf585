/* fcrash.h: what fcrash's files share: the device its FUSE daemon serves
 * (recording a write log, then serving crash states as views), the crash
 * states planned from the log, the acknowledged ranges, the checks, and
 * the built-in workloads. */
#ifndef FCRASH_H
#define FCRASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define SECTOR 512u

/* --- device.c: the FUSE daemon --- */

enum log_kind { LOG_WRITE, LOG_FLUSH, LOG_ZERO };

struct log_entry {
	uint64_t off, len;
	uint64_t data;		/* LOG_WRITE: where its bytes are in the log */
	enum log_kind kind;
};

/* Serve a device of SIZE bytes, filled with the marker, as the file "dev"
 * (and the log's sequence as "seq") of a FUSE mount on DIR, from a thread
 * of this process.  0, or -1 with a warning. */
int dev_start(const char *dir, uint64_t size);
/* Whether the daemon runs as an I/O flusher (its allocations do not wait
 * for writeback); a container may refuse it. */
bool dev_io_flusher(void);
/* Unmount and stop the daemon; frees everything. */
void dev_stop(void);
/* From now on every write, zeroing and flush is logged. */
void dev_log_start(void);
void dev_log_stop(void);
/* The log's room in bytes when a write was refused for want of it (the
 * workload saw an I/O error), else 0. */
uint64_t dev_log_full(void);
/* The log so far (valid until dev_stop). */
const struct log_entry *dev_log(size_t *n);
/* The bytes of write entry E. */
const unsigned char *dev_log_data(const struct log_entry *e);
/* Serve views: the device as the log's first POS entries left it (POS
 * never goes back), plus what dev_view_apply adds, plus the writes of
 * whoever mounts it, all in memory that dev_view_reset drops. */
void dev_view_at(size_t pos);
/* Apply sectors [FIRST, FIRST + COUNT) of log entry I on top of the view. */
void dev_view_apply(size_t i, uint64_t first, uint64_t count);
void dev_view_reset(void);
/* The marker for device sector S (SECTOR bytes) into BUF. */
void marker_fill(unsigned char *buf, uint64_t s);
/* Whether BUF (LEN <= SECTOR bytes, the start of a sector) is a marker. */
bool marker_is(const unsigned char *buf, size_t len);

/* --- states.c: crash states from the log --- */

enum state_kind { STATE_FLUSH, STATE_REORDER, STATE_TORN };

struct crash_state {
	enum state_kind kind;
	size_t pos;		/* the log prefix that is on the device */
	size_t window_end;	/* the next flush (or the log's end) */
	uint64_t *extra;	/* entries after POS that reached it too */
	size_t nextra;
	size_t torn;		/* STATE_TORN: the entry that persisted in part */
	uint64_t *torn_sectors;	/* which of its sectors did */
	size_t ntorn_sectors;
};

struct state_plan {
	unsigned reorder;	/* --reorder K */
	bool torn;
	size_t max_states;	/* --states N, 0: all */
	uint64_t seed;
};

/* The states of LOG (N entries), in order of position.  *COUNT set. */
struct crash_state *states_plan(const struct log_entry *log, size_t n,
    const struct state_plan *p, size_t *count);
void states_free(struct crash_state *s, size_t n);
const char *state_kind_name(enum state_kind k);

/* --- acks.c: what the workload said is durable --- */

struct ack {
	char *path;		/* relative to the mount point */
	uint64_t off, len;
	uint32_t crc;
	uint64_t seq;
	size_t line;
};

/* Read the acknowledgement log on FD; PREFIX is the mount point (absolute
 * paths must be under it).  -1 with WHY on a malformed line. */
int acks_read(int fd, const char *prefix, struct ack **out, size_t *n,
    char *why, size_t len);
void acks_free(struct ack *a, size_t n);

/* --- check.c: one state, mounted on MNT_FD --- */

struct state_result {
	bool unmountable;
	bool fsck_failed;
	bool held;		/* its mount could not be cleanly unmounted */
	uint64_t acked_lost;
	uint64_t stale;
	uint64_t stale_files;
	char what[256];		/* the first loss or stale file, for --details */
	char message[256];	/* the mount's or fsck's first line */
};

/* Check the acknowledged ranges required at POS, and every file for the
 * marker, in the file system mounted at MNT (NULL: not mounted, every
 * range required is lost). */
void check_acks(const char *mnt, const struct ack *a, size_t n, size_t pos,
    struct state_result *r);
void check_stale(const char *mnt, struct state_result *r);
/* Run ARGV (an fsck) on DEV; 0 when it found nothing, else -1 with its
 * first telling line in MSG. */
int check_fsck(const char *const *argv, const char *dev, char *msg,
    size_t len);

/* --- workload.c: the built-in workloads --- */

/* Whether NAME is a built-in workload. */
bool workload_known(const char *name);
/* The names, blank-separated, for messages. */
const char *workload_names(void);
/* Run NAME in MNT for ROUNDS rounds, acknowledging to the log ACK_PATH
 * (made new) with sequences read from SEQ_PATH.  Returns an exit status. */
int workload_run(const char *name, const char *mnt, const char *ack_path,
    const char *seq_path, unsigned rounds);

/* --- output.c: the records --- */

/* What one file system's run of crash states came to. */
struct tally {
	uint64_t states, unmountable, fsck_errors, lossy, stale_states;
	uint64_t acked_lost, stale, stale_files;
	uint64_t torn, torn_fsck, torn_lost;
	uint64_t writes, zeroes, flushes;
	double seconds, check_seconds;
};

/* A failing state, as --details prints it after the summary. */
struct detail {
	size_t index;
	enum state_kind kind;
	size_t pos;
	size_t extra;		/* writes beyond POS it kept, the torn one too */
	struct state_result r;
};

/* What the records say of the run besides its rows. */
struct run_meta {
	int argc;
	char **argv;
	const char *workload;	/* NULL: a command of the user's */
	const struct state_plan *plan;
	uint64_t device_size;
};

struct fs_spec;
void output_summary(const struct run_meta *m, const struct fs_spec *s,
    unsigned run, const struct tally *t);
void output_details(const struct run_meta *m, const struct fs_spec *s,
    unsigned run, const struct detail *d, size_t n);

/* --- replay.c: the crash states, each mounted and checked --- */

struct stage;
struct replay_opts {
	const struct state_plan *plan;
	bool quiet;		/* no progress line */
};
/* Check every planned state of the log against the acknowledgements A;
 * the failing ones go to *DETAILS.  -1 on a signal, or with WHY when a
 * state's mount could not be cleanly unmounted. */
int replay_states(const struct fs_spec *s, struct stage *g,
    const struct ack *a, size_t na, const struct replay_opts *o,
    struct tally *t, struct detail **details, size_t *nd, char *why,
    size_t len);
/* The state after the workload and a clean unmount must hold every
 * acknowledgement: -1 with WHY when one does not (it is wrong, not a
 * loss). */
int replay_final(const struct fs_spec *s, struct stage *g,
    const struct ack *a, size_t na, char *why, size_t len);

#endif
