/* stage.h: what one file system's run made (mount point, loop device,
 * mount, and for fcrash a FUSE mount and a private directory), so that
 * cleanup, or the guardian after a SIGKILL, undoes exactly that; and the
 * steps that make it: a private directory of mount points, mkfs, mount,
 * unmount.  Used by fmatrix and fcrash. */
#ifndef FSBENCH_STAGE_H
#define FSBENCH_STAGE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct fs_spec;

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
	bool top_bound;		/* bound on itself, private (a chroot) */
	bool ns_made;		/* we mount in a namespace of our own: */
	dev_t ns_dev;		/* its /proc/self/ns/mnt */
	ino_t ns_ino;
	char fuse[PATH_MAX];	/* fcrash: where its FUSE daemon is mounted */
	bool fuse_made;
	bool fuse_mounted;
	char aux[PATH_MAX];	/* fcrash: the workload's private directory */
	bool aux_made;
	char aux_file[PATH_MAX];	/* and the one file in it */
	bool aux_file_made;
};

/* Start the guardian: a process that outlives a SIGKILLed tool and undoes
 * what the stage shows: kills the command's group, unmounts (lazily),
 * removes the mount points.  The loop device goes with the mount
 * (autoclear) and an image is unlinked as soon as the device holds it. */
void stage_guard_start(void);
/* The stage the guardian reads (shared memory once it runs). */
struct stage *stage_current(void);

/* LABEL as a file name: '/', ':', ',' and '=' made '_'. */
void stage_file_name(const char *label, char *out, size_t len);
/* Make G->top, PROG.XXXXXX under /run or /tmp, in a directory only root
 * can change; exits 1 when there is none. */
void stage_make_top(struct stage *g, const char *prog);
void stage_remove_top(struct stage *g);
/* From here on, mount in a mount namespace of our own whose mounts no
 * other namespace sees or receives, so that no one outside can open, hold
 * or change what we mount.  Call after stage_guard_start (the guardian
 * stays outside) and stage_make_top, before any thread starts; exits 1
 * when it cannot be done. */
void stage_private_mounts(struct stage *g);
/* Empty G for the next file system, keeping its directory of mount
 * points and namespace. */
void stage_reset(struct stage *g);
/* Kill every process left in our mount namespace but us (a daemon the
 * command started in a session of its own) and wait until they are gone;
 * returns how many there were. */
int stage_kill_stragglers(const struct stage *g);
/* Run S's mkfs on G->dev; on failure its output's tail goes to stderr,
 * the reason to WHY, and -1 is returned. */
int stage_mkfs(const struct fs_spec *s, struct stage *g, char *why,
    size_t len);
/* Mount G->dev on G->mnt as S says; -1 and the kernel's reason in WHY. */
int stage_mount(const struct fs_spec *s, struct stage *g, char *why,
    size_t len);
/* Unmount G->mnt, waiting a little for a busy mount: 0, or -1 when it
 * stayed busy (nothing said). */
int stage_try_unmount(struct stage *g);
/* The same, and then lazily: 0, or -1 when it was busy (reported). */
int stage_unmount(const struct fs_spec *s, struct stage *g);

#endif
