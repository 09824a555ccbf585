/* build.c: the built-in build job, a compile-like mix: one worker per CPU
 * reads source files, does CPU work in proportion to their size and writes
 * object files; a link step concatenates the objects and fsyncs.  It is
 * deterministic, so runs on two kernels do the same work. */
#include "config.h"

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fload.h"
#include "xio.h"
#include "xalloc.h"

#define FILES_PER_DIR 100
/* Rounds of hashing over each source: about 1.5 ms of CPU per 16 KiB on
 * a 2020s core, so the default job is seconds of mostly CPU, as a kernel
 * compile is. */
#define COMPILE_ROUNDS 512

static void
src_path(char *buf, size_t len, const char *dir, uint64_t i)
{
	snprintf(buf, len, "%s/src/d%03" PRIu64 "/f%06" PRIu64 ".c", dir,
	    i / FILES_PER_DIR, i);
}

static void
obj_path(char *buf, size_t len, const char *dir, uint64_t i)
{
	snprintf(buf, len, "%s/obj/f%06" PRIu64 ".o", dir, i);
}

int
build_make_tree(const char *dir, uint64_t files, uint64_t size)
{
	char path[4096 + 64];
	unsigned char *text;
	uint64_t i;
	size_t k;
	int fd, rc = 0;

	path_fmt(path, sizeof(path), "%s/src", dir);
	if (dir_make(path) < 0)
		return -1;
	text = xmalloc(size);
	for (i = 0; i < files && rc == 0; i++) {
		if (i % FILES_PER_DIR == 0) {
			path_fmt(path, sizeof(path), "%s/src/d%03" PRIu64, dir,
			    i / FILES_PER_DIR);
			if (dir_make(path) < 0) {
				rc = -1;
				break;
			}
		}
		/* Printable, like source text, and different per file. */
		fill_pattern(text, size, 0x5000 + i);
		for (k = 0; k < size; k++)
			text[k] = (unsigned char)(' ' + text[k] % 95);
		src_path(path, sizeof(path), dir, i);
		rc = file_make(path, size, text, size, false, NULL);
		if (rc == 0 && proc_interrupted())
			rc = -1;
	}
	free(text);
	path_fmt(path, sizeof(path), "%s/src", dir);
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		if (rc == 0 && syncfs(fd) < 0) {
			warn("syncfs %s", path);
			rc = -1;
		}
		close(fd);
	}
	return rc;
}

/* The "compiler": CPU work proportional to the size of the input, whose
 * result the object file holds, so none of it can be optimised away. */
static void
compile(const unsigned char *src, size_t len, uint64_t *obj, size_t words)
{
	uint64_t h = 0x9e3779b97f4a7c15u, v;
	size_t i, r;

	for (r = 0; r < COMPILE_ROUNDS; r++)
		for (i = 0; i + sizeof(v) <= len; i += sizeof(v)) {
			memcpy(&v, src + i, sizeof(v));
			h = (h ^ v) * 0xbf58476d1ce4e5b9u;
			h ^= h >> 31;
			obj[(i / sizeof(v)) % words] ^= h;
		}
}

static int
read_file(const char *path, unsigned char *buf, size_t cap, size_t *len)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	*len = 0;
	while (*len < cap) {
		n = read(fd, buf + *len, cap - *len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			close(fd);
			return -1;
		}
		if (n == 0)
			break;
		*len += (size_t)n;
	}
	close(fd);
	return 0;
}

/* Compile source I into its object file. */
static int
compile_one(const struct job *j, uint64_t i, unsigned char *src, uint64_t *obj,
    size_t words)
{
	char path[4096 + 64];
	size_t len;
	int fd, rc = 0;

	src_path(path, sizeof(path), j->path, i);
	if (read_file(path, src, j->file_size, &len) < 0) {
		warn("build: %s", path);
		return -1;
	}
	memset(obj, 0, words * sizeof(*obj));
	compile(src, len, obj, words);
	obj_path(path, sizeof(path), j->path, i);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
	    0600);
	if (fd < 0) {
		warn("build: %s", path);
		return -1;
	}
	if (xio_write_all(fd, obj, words * sizeof(*obj)) < 0)
		rc = -1;
	if (close(fd) < 0)
		rc = -1;
	if (rc < 0)
		warn("build: %s", path);
	return rc;
}

static int
build_worker(const struct job *j, long w)
{
	size_t words = j->file_size / 4 / sizeof(uint64_t);
	unsigned char *src;
	uint64_t *obj, i;
	int rc = 0;

	if (words == 0)
		words = 1;
	src = malloc(j->file_size);
	obj = malloc(words * sizeof(*obj));
	for (i = (uint64_t)w; i < j->size && rc == 0; i += (uint64_t)j->workers)
		if (src == NULL || obj == NULL ||
		    compile_one(j, i, src, obj, words) < 0)
			rc = 1;
	free(src);
	free(obj);
	return rc;
}

static int
link_objects(const struct job *j)
{
	char path[4096 + 64];
	unsigned char *buf;
	size_t len;
	uint64_t i;
	int out, rc = 0;

	path_fmt(path, sizeof(path), "%s/a.out", j->path);
	out = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
	    0600);
	if (out < 0) {
		warn("build: link %s", path);
		return 1;
	}
	buf = malloc(j->file_size);
	for (i = 0; i < j->size && rc == 0; i++) {
		obj_path(path, sizeof(path), j->path, i);
		if (buf == NULL || read_file(path, buf, j->file_size, &len) < 0 ||
		    xio_write_all(out, buf, len) < 0) {
			warn("build: link %s", path);
			rc = 1;
		}
	}
	free(buf);
	if (rc == 0 && fsync(out) < 0) {
		warn("build: link: fsync");
		rc = 1;
	}
	if (close(out) < 0 && rc == 0) {
		warn("build: link: close");
		rc = 1;
	}
	return rc;
}

/* The job process: fork the workers (in our group, so fload's stop and
 * the guardian reach them), wait for them all, link.  Their CPU time and
 * faults come to fload through our rusage, as make's children do. */
int
build_run(void *arg)
{
	const struct job *j = arg;
	int status, rc = 0;
	pid_t pid;
	long w;

	for (w = 0; w < j->workers; w++) {
		pid = fork();
		if (pid < 0) {
			warn("build: fork");
			rc = 1;
			break;
		}
		if (pid == 0)
			_exit(build_worker(j, w));
	}
	while ((pid = wait(&status)) > 0 || (pid < 0 && errno == EINTR))
		if (pid > 0 && (!WIFEXITED(status) || WEXITSTATUS(status) != 0))
			rc = 1;
	if (rc != 0)
		return rc;
	return link_objects(j);
}
