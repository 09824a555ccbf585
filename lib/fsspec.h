/* fsspec.h: one file system to test, as the user names it with -f
 * (TYPE[:OPTIONS][@LABEL]): its label, mount(2) flags and data, the mkfs
 * command that makes it, and whether this machine can make and mount it.
 * Used by fmatrix and fcrash. */
#ifndef FSBENCH_FSSPEC_H
#define FSBENCH_FSSPEC_H

#include <limits.h>
#include <stddef.h>

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

/* Fill S from ARG; on a malformed spec write why to WHY and return -1. */
int fsspec_parse(const char *arg, struct fs_spec *s, char *why, size_t len);
/* Split S->opts and EXTRA into mount(2) flags and data; -1 and WHY on a
 * malformed list. */
int fsspec_mount_opts(struct fs_spec *s, const char *extra, char *why,
    size_t len);
/* Append the blank-separated words of WORDS to S's mkfs arguments. */
void fsspec_add_mkfs_args(struct fs_spec *s, const char *words);
/* The mkfs words that keep mkfs from discarding the device and from
 * leaving work for later (lazy inode tables), or "" when TYPE has none. */
const char *fsspec_mkfs_keep_words(const char *type);
/* The Debian package that ships mkfs.TYPE, or NULL when we do not know. */
const char *fsspec_mkfs_package(const char *type);
/* The fsck that checks TYPE without changing it, as a NULL-terminated
 * argument list before the device, or NULL when we have none. */
const char *const *fsspec_fsck_readonly(const char *type);
/* Find mkfs.TYPE in PATH, /usr/sbin or /sbin; fill S->mkfs_path.  0 or -1. */
int fsspec_find_mkfs(struct fs_spec *s);
/* Whether the running kernel has TYPE: 1 registered (/proc/filesystems),
 * 2 as a module that mount(2) will load, 0 not at all. */
int fsspec_kernel_has(const char *type);
/* Why a spec cannot work on any current kernel (reiserfs, ext3
 * data=guarded), or NULL. */
const char *fsspec_gone(const struct fs_spec *s);
/* The mkfs command line for S on DEV (NULL-terminated; free with free()). */
char **fsspec_mkfs_argv(const struct fs_spec *s, const char *dev);
/* A zeroed spec appended to the array *V of *N (exits when out of
 * memory). */
struct fs_spec *fsspec_append(struct fs_spec **v, size_t *n);
/* -f ARG of fmatrix and fcrash: parsed and appended to *V, or a usage
 * error (exit 2) that says why. */
void fsspec_add_arg(struct fs_spec **v, size_t *n, const char *arg);
/* --mkfs-opts FS=OPTS: OPTS for every spec of V whose type or label is FS;
 * -1 and WHY when ARG is malformed or names none. */
int fsspec_add_mkfs_opts(struct fs_spec *v, size_t n, const char *arg,
    char *why, size_t len);
/* -o given again: ALL (freed; NULL the first time) and MORE, joined with a
 * comma, in a new string. */
char *fsspec_join_opts(char *all, const char *more);
/* A label two specs of V share, or NULL. */
const char *fsspec_label_twice(const struct fs_spec *v, size_t n);
/* Free what fsspec_parse and friends allocated in S. */
void fsspec_free(struct fs_spec *s);

#endif
