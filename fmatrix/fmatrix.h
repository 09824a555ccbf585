/* fmatrix.h: what fmatrix's files share: one file system to test (its
 * spec, mkfs recipe and mount options), the loop device calls, and the
 * child-process runner that stops children when fmatrix is interrupted. */
#ifndef FMATRIX_H
#define FMATRIX_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* One -f SPEC: TYPE[:OPTIONS][@LABEL]. */
struct fs_spec {
	char type[32];
	char label[128];
	char *opts;		/* mount options as given after ':' ("" if none) */
	char *extra_opts;	/* -o options, added to every spec ("" if none) */
	unsigned long mflags;	/* MS_* flags from the generic options */
	char *mdata;		/* the rest: mount(2)'s data string */
	char **mkfs_args;	/* --mkfs-opts words, NULL-terminated */
	size_t n_mkfs_args;
	char mkfs_path[PATH_MAX];
};

/* spec.c */
/* Fill S from ARG; on a malformed spec write why to WHY and return -1. */
int spec_parse(const char *arg, struct fs_spec *s, char *why, size_t len);
/* Split S->opts and EXTRA into mount(2) flags and data; -1 and WHY on a
 * malformed list. */
int spec_mount_opts(struct fs_spec *s, const char *extra, char *why,
    size_t len);
/* Append the blank-separated words of WORDS to S's mkfs arguments. */
void spec_add_mkfs_args(struct fs_spec *s, const char *words);
/* The Debian package that ships mkfs.TYPE, or NULL when we do not know. */
const char *spec_mkfs_package(const char *type);
/* Find mkfs.TYPE in PATH, /usr/sbin or /sbin; fill S->mkfs_path.  0 or -1. */
int spec_find_mkfs(struct fs_spec *s);
/* Whether the running kernel has TYPE: 1 registered (/proc/filesystems),
 * 2 as a module that mount(2) will load, 0 not at all. */
int spec_kernel_has(const char *type);
/* Why a spec cannot work on any current kernel (reiserfs, ext3
 * data=guarded), or NULL. */
const char *spec_gone(const struct fs_spec *s);
/* The mkfs command line for S on DEV (NULL-terminated; free with free()). */
char **spec_mkfs_argv(const struct fs_spec *s, const char *dev);

/* loopdev.c */
/* Attach BACKING_FD to a free loop device with autoclear (and direct I/O
 * where the backing file system allows it).  Writes /dev/loopN to PATH and
 * returns an open descriptor of the device, or -1 with a warning printed. */
int loopdev_attach(int backing_fd, char *path, size_t len);
/* Detach: the device goes away when FD, the last opener, closes. */
void loopdev_detach(int fd, const char *path);

/* run.c */
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
 * grace period or a second signal; run_signal records it. */
int run_wait(pid_t pid, bool group);
/* Take a termination signal that arrived while blocked; 0 when none. */
int run_pending(void);
/* Whether process group PGID still has a live member (zombies reaped). */
int run_group_alive(pid_t pgid);
/* Kill what is left of process group PGID (SIGTERM, then SIGKILL). */
void run_kill_group(pid_t pgid);
/* The first termination signal received, or 0. */
extern int run_signal;
/* Re-raise run_signal with its default action, so our parent sees it. */
__attribute__((noreturn)) void run_die(void);
/* Describe wait status ST ("exited with status 3", "killed by SIGKILL"). */
void run_describe(int st, char *buf, size_t len);
/* Find CMD the way execvp will: 0 when found and executable. */
int run_find_command(const char *cmd);

/* What one file system's run made, so cleanup undoes exactly that. */
struct stage {
	char mnt[PATH_MAX];
	bool mnt_made;
	char img[PATH_MAX + 8];
	bool img_made;
	char dev[PATH_MAX];
	int loopfd;
	bool mounted;
	pid_t cmd_pgid;		/* the command's group while it runs */
	char top[PATH_MAX];	/* the private directory of mount points */
	bool top_made;
};

/* guard.c: a process that outlives a SIGKILLed fmatrix and undoes what the
 * stage shows: kills the command's group, unmounts (lazily), removes the
 * mount point.  The loop device goes with the mount (autoclear) and the
 * image was unlinked as soon as the device held it. */
void guard_start(void);
struct stage *guard_stage(void);

#endif
