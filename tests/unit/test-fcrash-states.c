/* test-fcrash-states: the crash states fcrash plans from a log, and the
 * acknowledgement lines it reads.  A flush state per flush at the position
 * just past it; reordered states keep a proper, non-empty subset of the
 * writes of their own window only; torn states keep a proper, non-empty
 * subset of one multi-sector write's sectors after every earlier write of
 * the window; --states keeps the first and last and spreads the rest; the
 * same seed gives the same states.  The ack parser takes names with
 * blanks, absolute paths under the mount point only, and refuses junk. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fcrash.h"
#include "tap.h"

/* W W F W W W F W W: flushes at 2 and 6, a tail of two writes. */
static struct log_entry log9[] = {
	{ .kind = LOG_WRITE, .off = 0, .len = 4096 },
	{ .kind = LOG_WRITE, .off = 8192, .len = 512 },
	{ .kind = LOG_FLUSH },
	{ .kind = LOG_WRITE, .off = 4096, .len = 4096 },
	{ .kind = LOG_ZERO, .off = 16384, .len = 1024 },
	{ .kind = LOG_WRITE, .off = 65536, .len = 8192 },
	{ .kind = LOG_FLUSH },
	{ .kind = LOG_WRITE, .off = 0, .len = 1024 },
	{ .kind = LOG_WRITE, .off = 512, .len = 512 },
};
#define N9 (sizeof(log9) / sizeof(log9[0]))

static size_t
count(const struct crash_state *s, size_t n, enum state_kind k)
{
	size_t c = 0;

	for (size_t i = 0; i < n; i++)
		c += s[i].kind == k;
	return c;
}

static void
test_flush_and_reorder(void)
{
	struct state_plan p = { .reorder = 3, .seed = 1 };
	size_t n, bad_window = 0, bad_subset = 0, last = 0;
	struct crash_state *s = states_plan(log9, N9, &p, &n);

	is_int(count(s, n, STATE_FLUSH), 2, "a flush state per flush");
	is_int(count(s, n, STATE_REORDER), 9, "three reordered states per window of two writes or more");
	for (size_t i = 0; i < n; i++) {
		if (s[i].kind == STATE_FLUSH)
			ok(s[i].pos == 3 || s[i].pos == 7, "flush state at %zu, just past its flush", s[i].pos);
		if (s[i].pos < last)
			bad_window++;	/* in order of position */
		last = s[i].pos;
		if (s[i].kind != STATE_REORDER)
			continue;
		size_t writes = 0;

		for (size_t e = s[i].pos; e < s[i].window_end; e++)
			writes += log9[e].kind != LOG_FLUSH;
		if (s[i].nextra == 0 || s[i].nextra >= writes)
			bad_subset++;
		for (size_t j = 0; j < s[i].nextra; j++)
			if (s[i].extra[j] < s[i].pos ||
			    s[i].extra[j] >= s[i].window_end ||
			    log9[s[i].extra[j]].kind == LOG_FLUSH)
				bad_window++;
	}
	is_int(bad_window, 0, "states in order, extra writes from their own window only, never a flush");
	is_int(bad_subset, 0, "each reordering keeps some but not all of its window");
	states_free(s, n);
}

static void
test_torn(void)
{
	struct state_plan p = { .torn = true, .seed = 7 };
	size_t n, bad = 0, torn = 0;
	struct crash_state *s = states_plan(log9, N9, &p, &n);

	for (size_t i = 0; i < n; i++) {
		if (s[i].kind != STATE_TORN)
			continue;
		const struct log_entry *w = &log9[s[i].torn];
		size_t sectors = (w->len + SECTOR - 1) / SECTOR;

		torn++;
		if (w->kind != LOG_WRITE || w->len < 2 * SECTOR ||
		    s[i].ntorn_sectors == 0 || s[i].ntorn_sectors >= sectors)
			bad++;
		for (size_t j = 0; j < s[i].ntorn_sectors; j++)
			if (s[i].torn_sectors[j] >= sectors)
				bad++;
		/* Every write of the window before the torn one is there. */
		size_t before = 0;

		for (size_t e = s[i].pos; e < s[i].torn; e++)
			before += log9[e].kind != LOG_FLUSH;
		if (s[i].nextra != before)
			bad++;
	}
	ok(torn >= 3, "torn states in each window with a multi-sector write (%zu)", torn);
	is_int(bad, 0, "a torn write keeps a proper, non-empty subset of its sectors, after the window's earlier writes");
	states_free(s, n);
}

static void
test_thin_and_seed(void)
{
	struct state_plan p = { .reorder = 5, .torn = true, .seed = 3 };
	size_t n_all, n, n2, same = 1;
	struct crash_state *all = states_plan(log9, N9, &p, &n_all);
	struct crash_state *again = states_plan(log9, N9, &p, &n2);

	is_int(n2, n_all, "the same seed: as many states");
	for (size_t i = 0; i < n_all && i < n2; i++)
		if (all[i].nextra != again[i].nextra ||
		    all[i].ntorn_sectors != again[i].ntorn_sectors ||
		    all[i].pos != again[i].pos)
			same = 0;
	ok(same, "the same seed: the same states");
	p.max_states = 4;
	struct crash_state *few = states_plan(log9, N9, &p, &n);

	is_int(n, 4, "--states 4: four states");
	ok(few[0].pos == all[0].pos && few[3].pos == all[n_all - 1].pos,
	    "--states keeps the first and the last");
	states_free(all, n_all);
	states_free(again, n2);
	states_free(few, n);
	p.max_states = 1;
	few = states_plan(log9, N9, &p, &n);
	is_int(n, 1, "--states 1: one state");
	states_free(few, n);
}

static int
acks_of(const char *text, struct ack **a, size_t *n, char *why, size_t len)
{
	int fd = memfd_create("acks", 0);

	*a = NULL;
	*n = 0;
	if (fd == -1)
		return -2;
	if (write(fd, text, strlen(text)) != (ssize_t)strlen(text) ||
	    lseek(fd, 0, SEEK_SET) != 0) {
		close(fd);
		return -2;
	}
	return acks_read(fd, "/mnt/x", a, n, why, len);
}

static void
test_acks(void)
{
	struct ack *a = NULL;
	size_t n = 0;
	char why[256];

	ok(acks_of("my file 0 4096 c71c0011 7\n/mnt/x/d/f 512 10 0xAB 9\n"
	    "# a comment\n", &a, &n, why, sizeof(why)) == 0, "two good lines");
	is_int(n, 2, "two acknowledgements");
	/* What a failed parse did not give is NULL or 0, not a crash. */
	is_str(n == 2 ? a[0].path : NULL, "my file", "a name with a blank");
	is_int(n == 2 ? a[0].crc : 0, 0xc71c0011u, "its CRC, hex");
	is_int(n == 2 ? a[0].seq : 0, 7, "its sequence");
	is_str(n == 2 ? a[1].path : NULL, "d/f", "an absolute path made relative to the mount point");
	is_int(n == 2 ? a[1].off : 0, 512, "its offset");
	acks_free(a, n);
	ok(acks_of("/etc/passwd 0 1 0 0\n", &a, &n, why, sizeof(why)) == -1 &&
	    strstr(why, "line 1: /etc/passwd is not under") != NULL,
	    "a path outside the mount point, by line");
	ok(acks_of("/mnt/xy/f 0 1 0 0\n", &a, &n, why, sizeof(why)) == -1,
	    "a sibling of the mount point is outside it");
	ok(acks_of("f 0 1 0 0\nf 0 0 0 0\n", &a, &n, why, sizeof(why)) == -1 &&
	    strstr(why, "line 2") != NULL, "an empty range, by line");
	ok(acks_of("f 0 1 123456789 0\n", &a, &n, why, sizeof(why)) == -1,
	    "a CRC of more than 32 bits");
	ok(acks_of("f -1 1 0 0\n", &a, &n, why, sizeof(why)) == -1,
	    "a negative offset");
	ok(acks_of("f 18446744073709551615 2 0 0\n", &a, &n, why, sizeof(why)) == -1,
	    "a range past 2^64");
	ok(acks_of("0 1 0 0\n", &a, &n, why, sizeof(why)) == -1,
	    "no path");
	ok(acks_of("", &a, &n, why, sizeof(why)) == 0 && n == 0,
	    "an empty log: nothing acknowledged");
	acks_free(a, n);
}

int
main(void)
{
	test_flush_and_reorder();
	test_torn();
	test_thin_and_seed();
	test_acks();
	return tap_done();
}
