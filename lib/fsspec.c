/* spec.c: one file system to test, as the user names it with -f
 * (TYPE[:OPTIONS][@LABEL]): its label, mount(2) flags and data, the mkfs
 * command that makes it, and whether this machine can make and mount it. */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cli.h"
#include "fsspec.h"
#include "xalloc.h"

/* Options that mount(8) turns into MS_* flags rather than passing them to
 * the file system: mount(2) rejects them in the data string. */
static const struct {
	const char *name;
	unsigned long set, clear;
} mount_flags[] = {
	{ "async",	 0, MS_SYNCHRONOUS },
	{ "atime",	 0, MS_NOATIME },
	{ "defaults",	 0, 0 },
	{ "dev",	 0, MS_NODEV },
	{ "diratime",	 0, MS_NODIRATIME },
	{ "dirsync",	 MS_DIRSYNC, 0 },
	{ "exec",	 0, MS_NOEXEC },
	{ "lazytime",	 MS_LAZYTIME, 0 },
	{ "loud",	 0, MS_SILENT },
	{ "noatime",	 MS_NOATIME, 0 },
	{ "nodev",	 MS_NODEV, 0 },
	{ "nodiratime",	 MS_NODIRATIME, 0 },
	{ "noexec",	 MS_NOEXEC, 0 },
	{ "nolazytime",	 0, MS_LAZYTIME },
	{ "norelatime",	 0, MS_RELATIME },
	{ "nostrictatime", 0, MS_STRICTATIME },
	{ "nosuid",	 MS_NOSUID, 0 },
	{ "relatime",	 MS_RELATIME, 0 },
	{ "ro",		 MS_RDONLY, 0 },
	{ "rw",		 0, MS_RDONLY },
	{ "silent",	 MS_SILENT, 0 },
	{ "strictatime", MS_STRICTATIME, 0 },
	{ "suid",	 0, MS_NOSUID },
	{ "sync",	 MS_SYNCHRONOUS, 0 },
};

/* How each mkfs is told to be quiet and to overwrite what it finds (the
 * image is new, or the user named the device twice), and who ships it.
 * mke2fs picks its "small" type (1 KiB blocks, more inodes) below 512 MiB:
 * "-T default" makes a 320M image the ext4 that a real disk gets. */
static const struct {
	const char *type;
	const char *package;
	const char *quiet;
	const char *force;
	const char *usage;
} mkfs_recipes[] = {
	{ "btrfs",	"btrfs-progs",	 "-q", "-f", NULL },
	{ "exfat",	"exfatprogs",	 "-q", NULL, NULL },
	{ "ext2",	"e2fsprogs",	 "-q", "-F", "-Tdefault" },
	{ "ext3",	"e2fsprogs",	 "-q", "-F", "-Tdefault" },
	{ "ext4",	"e2fsprogs",	 "-q", "-F", "-Tdefault" },
	{ "f2fs",	"f2fs-tools",	 "-q", "-f", NULL },
	{ "jfs",	"jfsutils",	 "-q", NULL, NULL },
	{ "nilfs2",	"nilfs-tools",	 "-q", "-f", NULL },
	{ "reiserfs",	"reiserfsprogs", "-q", "-f", NULL },
	{ "vfat",	"dosfstools",	 NULL, NULL, NULL },
	{ "xfs",	"xfsprogs",	 "-q", "-f", NULL },
};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static int
label_char_ok(int c)
{
	return isalnum(c) || strchr("._+,=:-", c) != NULL;
}

static int
parse_type(const char *arg, size_t n, struct fs_spec *s, char *why, size_t len)
{
	if (n == 0) {
		snprintf(why, len, "no file system type in '%s'", arg);
		return -1;
	}
	if (n >= sizeof(s->type)) {
		snprintf(why, len, "file system type too long in '%s'", arg);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		if (!islower((unsigned char)arg[i]) && !isdigit((unsigned char)arg[i])) {
			snprintf(why, len, "bad file system type in '%s' "
			    "(lower-case letters and digits)", arg);
			return -1;
		}
	}
	memcpy(s->type, arg, n);
	s->type[n] = '\0';
	return 0;
}

/* The label names the options: "ext3:data=writeback" -> ext3-writeback,
 * "ext4:noatime,data=journal" -> ext4-noatime-journal, as seed 000 did. */
static int
default_label(struct fs_spec *s, char *why, size_t len)
{
	char *copy, *item, *save = NULL;
	size_t used;

	used = (size_t)snprintf(s->label, sizeof(s->label), "%s", s->type);
	if ((copy = strdup(s->opts)) == NULL) {
		snprintf(why, len, "out of memory");
		return -1;
	}
	for (item = strtok_r(copy, ",", &save); item != NULL;
	    item = strtok_r(NULL, ",", &save)) {
		const char *eq = strchr(item, '=');
		const char *word = eq && eq[1] != '\0' ? eq + 1 : item;

		used += (size_t)snprintf(s->label + used,
		    used < sizeof(s->label) ? sizeof(s->label) - used : 0,
		    "-%s", word);
		if (used >= sizeof(s->label)) {
			free(copy);
			snprintf(why, len, "label too long for '%s:%s' "
			    "(name one with @LABEL)", s->type, s->opts);
			return -1;
		}
	}
	free(copy);
	for (char *p = s->label; *p != '\0'; p++)
		if (!label_char_ok((unsigned char)*p))
			*p = '_';
	return 0;
}

static int
check_opts(const char *arg, const char *opts, char *why, size_t len)
{
	size_t n = strlen(opts);

	if (n > 0 && (opts[0] == ',' || opts[n - 1] == ',' ||
	    strstr(opts, ",,") != NULL)) {
		snprintf(why, len, "empty mount option in '%s'", arg);
		return -1;
	}
	return 0;
}

int
fsspec_parse(const char *arg, struct fs_spec *s, char *why, size_t len)
{
	const char *colon, *at;
	size_t tlen;

	memset(s, 0, sizeof(*s));
	if (strpbrk(arg, " \t\n") != NULL) {
		snprintf(why, len, "blank in file system spec '%s'", arg);
		return -1;
	}
	at = strrchr(arg, '@');
	colon = strchr(arg, ':');
	if (colon != NULL && at != NULL && at < colon)
		colon = NULL;
	tlen = colon ? (size_t)(colon - arg) : at ? (size_t)(at - arg) :
	    strlen(arg);
	if (parse_type(arg, tlen, s, why, len) == -1)
		return -1;
	if (colon != NULL)
		s->opts = strndup(colon + 1, at ? (size_t)(at - colon - 1) :
		    strlen(colon + 1));
	else
		s->opts = strdup("");
	if (s->opts == NULL) {
		snprintf(why, len, "out of memory");
		return -1;
	}
	if (check_opts(arg, s->opts, why, len) == -1)
		return -1;
	if (at == NULL)
		return default_label(s, why, len);
	if (at[1] == '\0' || strlen(at + 1) >= sizeof(s->label)) {
		snprintf(why, len, "bad label in '%s'", arg);
		return -1;
	}
	for (const char *p = at + 1; *p != '\0'; p++) {
		if (!label_char_ok((unsigned char)*p)) {
			snprintf(why, len, "bad label in '%s' (letters, digits "
			    "and ._+,=:-)", arg);
			return -1;
		}
	}
	strcpy(s->label, at + 1);
	return 0;
}

static int
flag_option(struct fs_spec *s, const char *item)
{
	for (size_t i = 0; i < NELEM(mount_flags); i++) {
		if (strcmp(item, mount_flags[i].name) == 0) {
			s->mflags &= ~mount_flags[i].clear;
			s->mflags |= mount_flags[i].set;
			return 1;
		}
	}
	return 0;
}

static int
add_data(struct fs_spec *s, const char *item)
{
	size_t old = strlen(s->mdata), n = strlen(item);
	char *p = realloc(s->mdata, old + n + 2);

	if (p == NULL)
		return -1;
	if (old > 0)
		p[old++] = ',';
	memcpy(p + old, item, n + 1);
	s->mdata = p;
	return 0;
}

static int
split_opts(struct fs_spec *s, const char *list)
{
	char *copy, *item, *save = NULL;
	int rc = 0;

	if ((copy = strdup(list)) == NULL)
		return -1;
	for (item = strtok_r(copy, ",", &save); item != NULL && rc == 0;
	    item = strtok_r(NULL, ",", &save))
		if (!flag_option(s, item))
			rc = add_data(s, item);
	free(copy);
	return rc;
}

int
fsspec_mount_opts(struct fs_spec *s, const char *extra, char *why, size_t len)
{
	if (strpbrk(extra, " \t\n") != NULL) {
		snprintf(why, len, "blank in mount options '%s'", extra);
		return -1;
	}
	if (check_opts(extra, extra, why, len) == -1)
		return -1;
	free(s->extra_opts);
	free(s->mdata);
	s->mflags = 0;
	s->extra_opts = strdup(extra);
	s->mdata = strdup("");
	if (s->extra_opts == NULL || s->mdata == NULL ||
	    split_opts(s, s->opts) == -1 || split_opts(s, extra) == -1) {
		snprintf(why, len, "out of memory");
		return -1;
	}
	return 0;
}

void
fsspec_add_mkfs_args(struct fs_spec *s, const char *words)
{
	char *copy = strdup(words), *w, *save = NULL;

	if (copy == NULL)
		abort();
	for (w = strtok_r(copy, " \t", &save); w != NULL;
	    w = strtok_r(NULL, " \t", &save)) {
		char **a = realloc(s->mkfs_args,
		    (s->n_mkfs_args + 2) * sizeof(*a));

		if (a == NULL || (a[s->n_mkfs_args] = strdup(w)) == NULL)
			abort();
		a[++s->n_mkfs_args] = NULL;
		s->mkfs_args = a;
	}
	free(copy);
}

static int
recipe(const char *type)
{
	for (size_t i = 0; i < NELEM(mkfs_recipes); i++)
		if (strcmp(type, mkfs_recipes[i].type) == 0)
			return (int)i;
	return -1;
}

const char *
fsspec_mkfs_package(const char *type)
{
	int r = recipe(type);

	return r < 0 ? NULL : mkfs_recipes[r].package;
}

static int
executable_in(const char *dir, size_t dlen, const char *name, char *out,
    size_t len)
{
	struct stat st;

	if ((size_t)snprintf(out, len, "%.*s/%s", (int)dlen, dir, name) >= len)
		return 0;
	return stat(out, &st) == 0 && S_ISREG(st.st_mode) &&
	    access(out, X_OK) == 0;
}

/* root's PATH has the sbin directories; sudo and su without '-' may not. */
int
fsspec_find_mkfs(struct fs_spec *s)
{
	const char *path = getenv("PATH"), *p, *end;
	char name[64];

	snprintf(name, sizeof(name), "mkfs.%s", s->type);
	for (p = path ? path : ""; *p != '\0'; p = *end ? end + 1 : end) {
		end = strchrnul(p, ':');
		if (end > p && executable_in(p, (size_t)(end - p), name,
		    s->mkfs_path, sizeof(s->mkfs_path)))
			return 0;
	}
	if (executable_in("/usr/sbin", 9, name, s->mkfs_path,
	    sizeof(s->mkfs_path)) ||
	    executable_in("/sbin", 5, name, s->mkfs_path, sizeof(s->mkfs_path)))
		return 0;
	/* Named anyway, for the plan and the messages. */
	snprintf(s->mkfs_path, sizeof(s->mkfs_path), "%s", name);
	return -1;
}

static int
proc_filesystems_has(const char *type)
{
	FILE *f = fopen("/proc/filesystems", "re");
	char line[256], name[64];
	int found = 0;

	if (f == NULL)
		return 0;
	while (!found && fgets(line, sizeof(line), f) != NULL) {
		char *tab = strrchr(line, '\t');

		if (tab == NULL || sscanf(tab + 1, "%63s", name) != 1)
			continue;
		found = strcmp(name, type) == 0;
	}
	fclose(f);
	return found;
}

/* mount(2) asks modprobe for "fs-TYPE"; the module list says whether
 * that can work without trying. */
static int
module_alias_has(const char *type)
{
	static const char *const roots[] = { "/lib/modules", "/usr/lib/modules" };
	struct utsname u;
	char path[512], line[512], want[96];
	int found = 0;

	if (uname(&u) == -1)
		return 0;
	snprintf(want, sizeof(want), "alias fs-%s ", type);
	for (size_t i = 0; i < NELEM(roots) && !found; i++) {
		FILE *f;

		snprintf(path, sizeof(path), "%s/%s/modules.alias", roots[i],
		    u.release);
		if ((f = fopen(path, "re")) == NULL)
			continue;
		while (!found && fgets(line, sizeof(line), f) != NULL)
			found = strncmp(line, want, strlen(want)) == 0;
		fclose(f);
	}
	return found;
}

int
fsspec_kernel_has(const char *type)
{
	if (proc_filesystems_has(type))
		return 1;
	return module_alias_has(type) ? 2 : 0;
}

const char *
fsspec_gone(const struct fs_spec *s)
{
	const char *p = strstr(s->opts, "data=guarded");

	if (p != NULL && (p == s->opts || p[-1] == ',') &&
	    (p[12] == '\0' || p[12] == ','))
		return "ext3's data=guarded mode was proposed in 2009 "
		    "but never entered the kernel";
	if (strcmp(s->type, "reiserfs") == 0)
		return "reiserfs left the kernel in Linux 6.13";
	return NULL;
}

char **
fsspec_mkfs_argv(const struct fs_spec *s, const char *dev)
{
	char **argv = calloc(s->n_mkfs_args + 6, sizeof(*argv));
	size_t n = 0;
	int r = recipe(s->type);

	if (argv == NULL)
		return NULL;
	argv[n++] = (char *)s->mkfs_path;
	if (r >= 0 && mkfs_recipes[r].quiet != NULL)
		argv[n++] = (char *)mkfs_recipes[r].quiet;
	if (r >= 0 && mkfs_recipes[r].force != NULL)
		argv[n++] = (char *)mkfs_recipes[r].force;
	if (r >= 0 && mkfs_recipes[r].usage != NULL)
		argv[n++] = (char *)mkfs_recipes[r].usage;
	for (size_t i = 0; i < s->n_mkfs_args; i++)
		argv[n++] = s->mkfs_args[i];
	argv[n++] = (char *)dev;
	argv[n] = NULL;
	return argv;
}

const char *
fsspec_mkfs_keep_words(const char *type)
{
	/* Discarding would punch holes where a caller's pattern should stay,
	 * and lazy initialisation writes in the background long after mkfs. */
	if (strncmp(type, "ext", 3) == 0)
		return "-E nodiscard,lazy_itable_init=0,lazy_journal_init=0";
	if (strcmp(type, "xfs") == 0 || strcmp(type, "btrfs") == 0)
		return "-K";
	return "";
}

const char *const *
fsspec_fsck_readonly(const char *type)
{
	static const char *const e2fsck[] = { "e2fsck", "-f", "-n", NULL };
	static const char *const xfs[] = { "xfs_repair", "-n", NULL };
	static const char *const btrfs[] = { "btrfs", "check", "--readonly",
	    NULL };

	if (strncmp(type, "ext", 3) == 0)
		return e2fsck;
	if (strcmp(type, "xfs") == 0)
		return xfs;
	if (strcmp(type, "btrfs") == 0)
		return btrfs;
	return NULL;
}

void
fsspec_free(struct fs_spec *s)
{
	free(s->opts);
	free(s->extra_opts);
	free(s->mdata);
	for (size_t i = 0; i < s->n_mkfs_args; i++)
		free(s->mkfs_args[i]);
	free(s->mkfs_args);
	s->opts = s->extra_opts = s->mdata = NULL;
	s->mkfs_args = NULL;
	s->n_mkfs_args = 0;
}

struct fs_spec *
fsspec_append(struct fs_spec **v, size_t *n)
{
	*v = xrealloc(*v, *n + 1, sizeof(**v));
	memset(&(*v)[*n], 0, sizeof((*v)[*n]));
	return &(*v)[(*n)++];
}

int
fsspec_add_mkfs_opts(struct fs_spec *v, size_t n, const char *arg,
    char *why, size_t len)
{
	const char *eq = strchr(arg, '=');
	size_t klen = eq ? (size_t)(eq - arg) : 0;
	int matched = 0;

	if (klen == 0) {
		snprintf(why, len, "--mkfs-opts wants FS=OPTS: '%.100s'", arg);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		if ((strlen(v[i].label) == klen &&
		    strncmp(v[i].label, arg, klen) == 0) ||
		    (strlen(v[i].type) == klen &&
		    strncmp(v[i].type, arg, klen) == 0)) {
			fsspec_add_mkfs_args(&v[i], eq + 1);
			matched++;
		}
	if (!matched) {
		snprintf(why, len, "--mkfs-opts '%.100s': no file system of "
		    "that type or label", arg);
		return -1;
	}
	return 0;
}

char *
fsspec_join_opts(char *all, const char *more)
{
	char *p;

	if (all == NULL)
		return xstrdup(more);
	p = xmalloc(strlen(all) + strlen(more) + 2);
	sprintf(p, "%s,%s", all, more);
	free(all);
	return p;
}

const char *
fsspec_label_twice(const struct fs_spec *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < i; j++)
			if (strcmp(v[j].label, v[i].label) == 0)
				return v[i].label;
	return NULL;
}

void
fsspec_add_arg(struct fs_spec **v, size_t *n, const char *arg)
{
	char why[256];

	if (fsspec_parse(arg, fsspec_append(v, n), why, sizeof(why)) == -1)
		cli_usage_error("%s", why);
}
