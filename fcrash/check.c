/* check.c: what one crash state shows once mounted: acknowledged ranges
 * that do not hold what was acknowledged, files that hold the marker (data
 * this file system never got from the workload: someone else's old
 * blocks), and what the file system's own checker says afterwards.
 * Every file is opened beneath the mount's descriptor without following
 * links, whatever names the workload (or a broken state) left there. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include "fcrash.h"
#include "run.h"

#define CHUNK		(1u << 20)
#define MAX_DEPTH	64

static int
open_beneath(int dirfd, const char *path)
{
	struct open_how how = {
		.flags = O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
		    RESOLVE_NO_MAGICLINKS,
	};

	return (int)syscall(SYS_openat2, dirfd, path, &how, sizeof(how));
}

/* The CRC32 of LEN bytes at OFF of PATH, or -1 when they are not all
 * there (no file, a shorter one, an error). */
static int
range_crc(int root, const char *path, uint64_t off, uint64_t len,
    uint32_t *crc)
{
	static unsigned char buf[CHUNK];
	int fd = open_beneath(root, path);
	uLong c = crc32(0L, Z_NULL, 0);

	if (fd == -1)
		return -1;
	while (len > 0) {
		size_t want = len < CHUNK ? (size_t)len : CHUNK;
		ssize_t n = pread(fd, buf, want, (off_t)off);

		if (n <= 0) {
			close(fd);
			return -1;
		}
		c = crc32(c, buf, (uInt)n);
		off += (uint64_t)n;
		len -= (uint64_t)n;
	}
	close(fd);
	*crc = (uint32_t)c;
	return 0;
}

static uint32_t
zeroes_crc(uint64_t len)
{
	static unsigned char zero[4096];
	uLong c = crc32(0L, Z_NULL, 0);

	while (len > 0) {
		uInt n = len < sizeof(zero) ? (uInt)len : (uInt)sizeof(zero);

		c = crc32(c, zero, n);
		len -= n;
	}
	return (uint32_t)c;
}

/* What a lost range holds instead: nothing (missing or short), zeroes
 * (an unwritten extent, a hole), an older acknowledged version, or
 * something else. */
static const char *
found(int root, const struct ack *want, const struct ack *a, size_t from,
    size_t to)
{
	uint32_t crc;

	if (range_crc(root, want->path, want->off, want->len, &crc) == -1)
		return "missing";
	if (crc == zeroes_crc(want->len))
		return "zeroes";
	for (size_t i = from; i < to; i++)
		if (a[i].crc == crc)
			return "older";
	return "other";
}

static bool
same_range(const struct ack *a, const struct ack *b)
{
	return a->off == b->off && a->len == b->len &&
	    strcmp(a->path, b->path) == 0;
}

void
check_acks(const char *mnt, const struct ack *a, size_t n, size_t pos,
    struct state_result *r)
{
	int root = mnt ? open(mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;

	if (root == -1 && mnt != NULL) {
		snprintf(r->message, sizeof(r->message), "%s: %s", mnt,
		    strerror(errno));
		r->unmountable = true;
		return;
	}
	/* A is sorted by range, then by sequence: each group is the history
	 * of one range.  What must be there is the last version acknowledged
	 * at or before POS, or any later one (an overwrite is no loss). */
	for (size_t g = 0; g < n; ) {
		size_t end = g, want = n;
		uint32_t crc;
		bool ok = false;

		while (end < n && same_range(&a[g], &a[end]))
			end++;
		for (size_t i = g; i < end && a[i].seq <= pos; i++)
			want = i;
		if (want < n && root != -1 && range_crc(root, a[want].path,
		    a[want].off, a[want].len, &crc) == 0)
			for (size_t i = want; i < end && !ok; i++)
				ok = a[i].crc == crc;
		if (want < n && !ok) {
			if (r->acked_lost == 0)
				snprintf(r->what, sizeof(r->what),
				    "%.150s@%llu+%llu(ack-line-%zu,%s)",
				    a[want].path,
				    (unsigned long long)a[want].off,
				    (unsigned long long)a[want].len,
				    a[want].line, root == -1 ? "unmounted" :
				    found(root, &a[want], a, g, want));
			r->acked_lost += a[want].len;
		}
		g = end;
	}
	if (root != -1)
		close(root);
}

/* Count the marker sectors of FD from OFF to END. */
static uint64_t
stale_between(int fd, off_t off, off_t end)
{
	static unsigned char buf[CHUNK];
	uint64_t stale = 0;
	ssize_t n;

	while (off < end && (n = pread(fd, buf, end - off < (off_t)CHUNK ?
	    (size_t)(end - off) : CHUNK, off)) > 0) {
		for (ssize_t i = 0; i < n; i += SECTOR) {
			size_t l = (size_t)(n - i) < SECTOR ? (size_t)(n - i) :
			    SECTOR;

			if (marker_is(buf + i, l))
				stale += l;
		}
		off += n;
	}
	return stale;
}

/* Count the marker sectors of the regular file FD of SIZE bytes.  Only
 * its data is read: a hole reads as zeroes, never as the marker, and a
 * sparse file of a terabyte would take hours in every state. */
static uint64_t
stale_in(int fd, off_t size)
{
	uint64_t stale = 0;
	off_t data = 0, hole;

	for (;;) {
		data = lseek(fd, data, SEEK_DATA);
		if (data == -1) {
			if (errno == ENXIO)
				return stale;	/* no data past here */
			return stale_between(fd, 0, size);	/* no SEEK_DATA */
		}
		hole = lseek(fd, data, SEEK_HOLE);
		if (hole == -1)
			hole = size;
		/* Sectors stay aligned to the file's offsets. */
		data -= data % SECTOR;
		stale += stale_between(fd, data, hole);
		if (hole >= size)
			return stale;
		data = hole;
	}
}

static void
walk(int dirfd, const char *rel, int depth, struct state_result *r)
{
	DIR *dir;
	struct dirent *e;

	if (depth > MAX_DEPTH || (dir = fdopendir(dirfd)) == NULL) {
		close(dirfd);
		return;
	}
	while ((e = readdir(dir)) != NULL) {
		struct stat st;
		char path[512];
		int fd;

		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (fstatat(dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == -1)
			continue;
		snprintf(path, sizeof(path), "%s%s%s", rel, rel[0] ? "/" : "",
		    e->d_name);
		if (S_ISDIR(st.st_mode)) {
			fd = openat(dirfd, e->d_name, O_RDONLY | O_DIRECTORY |
			    O_NOFOLLOW | O_CLOEXEC);
			if (fd != -1)
				walk(fd, path, depth + 1, r);
		} else if (S_ISREG(st.st_mode)) {
			uint64_t s;

			fd = openat(dirfd, e->d_name, O_RDONLY | O_NOFOLLOW |
			    O_CLOEXEC | O_NONBLOCK);
			if (fd == -1)
				continue;
			if ((s = stale_in(fd, st.st_size)) > 0) {
				if (r->stale_files == 0 && r->what[0] == '\0')
					snprintf(r->what, sizeof(r->what),
					    "%.200s(stale)", path);
				r->stale += s;
				r->stale_files++;
			}
			close(fd);
		}
	}
	closedir(dir);
}

void
check_stale(const char *mnt, struct state_result *r)
{
	int fd = open(mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd != -1)
		walk(fd, "", 0, r);
}

/* The first line of a checker's output that says something: not its
 * banner nor its list of passes. */
static void
telling_line(int fd, char *msg, size_t len)
{
	static const char *const dull[] = { "e2fsck ", "Pass ", "Phase ",
	    "        - ", "Opening filesystem", "Checking filesystem",
	    "UUID:", "[", "Warning: skipping journal", "No modify flag",
	    "Starting repair", "Checking ", "Running ", NULL };
	char buf[8192], *line, *save = NULL;
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	msg[0] = '\0';
	if (n <= 0)
		return;
	buf[n] = '\0';
	for (line = strtok_r(buf, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		bool skip = line[strspn(line, " \t")] == '\0';

		for (size_t i = 0; dull[i] != NULL && !skip; i++)
			skip = strncmp(line, dull[i], strlen(dull[i])) == 0;
		if (!skip) {
			snprintf(msg, len, "%s", line);
			return;
		}
	}
}

int
check_fsck(const char *const *argv, const char *dev, char *msg, size_t len)
{
	const char *args[8];
	size_t n = 0;
	int out, st;
	pid_t pid;

	while (n < 6 && argv[n] != NULL) {
		args[n] = argv[n];
		n++;
	}
	args[n++] = dev;
	args[n] = NULL;
	if ((out = memfd_create("fsck-output", MFD_CLOEXEC)) == -1) {
		snprintf(msg, len, "memfd_create: %s", strerror(errno));
		return -1;
	}
	pid = run_spawn((char *const *)args, out, true, NULL, false);
	if (pid == -1) {
		snprintf(msg, len, "%s could not start", argv[0]);
		close(out);
		return -1;
	}
	st = run_wait(pid, false);
	if (st != 0) {
		char desc[64];

		telling_line(out, msg, len);
		if (msg[0] == '\0') {
			run_describe(st, desc, sizeof(desc));
			snprintf(msg, len, "%s %s", argv[0], desc);
		}
	}
	close(out);
	return st == 0 ? 0 : -1;
}
