/* test-target: the data-safety rules of target_open, on real files in a
 * scratch directory: new names, directories, refusals, --force, cleanup. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "target.h"
#include "tap.h"

static char dir[] = "/tmp/fsbench-target.XXXXXX";

static void
put(const char *name, const char *text)
{
	char p[4096];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	f = fopen(p, "w");
	if (f == NULL)
		abort();
	fputs(text, f);
	fclose(f);
}

static int
exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

static char *
at(const char *name)
{
	static char p[4][4096];
	static int i;

	i = (i + 1) % 4;
	snprintf(p[i], sizeof(p[i]), "%s/%s", dir, name);
	return p[i];
}

int
main(void)
{
	struct target t;
	char made[4096], buf[16] = { 0 };
	int fd;

	if (mkdtemp(dir) == NULL)
		return 1;
	is_int(target_open(&t, dir, "fzero", 0, 0), 0, "a directory gets a new file");
	snprintf(made, sizeof(made), "%s", t.path);
	ok(strncmp(t.path + strlen(dir), "/.fzero.", 8) == 0, "named .fzero.XXXXXX");
	ok(t.created && exists(made), "it exists and is ours");
	is_int(target_close(&t, false), 0, "close");
	ok(!exists(made), "closing removes what we made");

	is_int(target_open(&t, at("new"), "x", 0, 0), 0, "a new path is created");
	target_close(&t, true);
	ok(exists(at("new")), "--keep leaves it");
	is_int(target_open(&t, at("new"), "x", 0, 0), -2, "an existing file is refused");
	put("victim", "precious");
	is_int(target_open(&t, at("victim"), "x", TARGET_FORCE, 0), 0, "--force reuses a regular file");
	ok(!t.created, "not ours");
	target_close(&t, false);
	ok(exists(at("victim")), "a reused file is never removed");

	if (geteuid() == 0) {
		chown(at("victim"), 65534, 65534);
		is_int(target_open(&t, at("victim"), "x", TARGET_FORCE, 0), -2,
		    "another user's file is refused even with --force");
		chown(at("victim"), 0, 0);
	} else {
		ok(1, "# SKIP another user's file needs root to set up");
	}
	symlink(at("victim"), at("link"));
	is_int(target_open(&t, at("link"), "x", TARGET_FORCE, 0), -2, "a symlink is refused even with --force");
	link(at("victim"), at("hard"));
	is_int(target_open(&t, at("hard"), "x", TARGET_FORCE, 0), -2, "a hard-linked file is refused");
	mkfifo(at("fifo"), 0600);
	is_int(target_open(&t, at("fifo"), "x", TARGET_FORCE, 0), -2, "a FIFO is refused");
	is_int(target_open(&t, "/dev/null", "x", TARGET_FORCE, 0), -2, "a device is refused");
	fd = open(at("victim"), O_RDONLY);
	read(fd, buf, sizeof(buf) - 1);
	close(fd);
	is_str(buf, "precious", "the victim is unchanged");
	is_int(target_open(&t, at("nodir/x"), "x", 0, 0), -1, "a missing parent fails");

	/* Registered files go at target_cleanup, as on a signal or exit. */
	target_open(&t, dir, "fzero", 0, 0);
	snprintf(made, sizeof(made), "%s", t.path);
	target_cleanup();
	ok(!exists(made), "cleanup removes registered files");
	close(t.fd);

	ok(target_check_space(dir, 4096) == 0, "4 KiB fits");
	ok(target_check_space(dir, UINT64_MAX) == -1 && errno == ENOSPC, "2^64 bytes do not fit");
	ok(target_check_space(at("notyet"), 4096) == 0, "space is checked on the parent of a new path");

	unlink(at("new"));
	unlink(at("victim"));
	unlink(at("link"));
	unlink(at("hard"));
	unlink(at("fifo"));
	rmdir(dir);
	return tap_done();
}
