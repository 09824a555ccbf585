/* files.c: the files frandrw's jobs work on: made or reused, their
 * preallocation, their cache drops, closed or kept. */
#include "config.h"

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "drop.h"
#include "run.h"
#include "sig.h"

bool
writes_anything(const struct run *R)
{
	int i;

	if (R->opt.prealloc != PRE_NONE)
		return true;
	for (i = 0; i < R->opt.nphases; i++)
		if (is_write_phase(R->opt.phase[i]))
			return true;
	return false;
}

void
drop_after(struct run *R, unsigned bit)
{
	uint64_t j;

	if (!(R->opt.drop_after & bit) || R->opt.m.drop == DROP_NONE)
		return;
	for (j = 0; j < R->opt.jobs; j++)
		if (owns_file(&R->job[j]) && drop_caches(R->opt.m.drop,
		    R->job[j].t.fd, R->job[j].t.path, &R->fs) < 0)
			fail_run(R);
	if (sig_interrupted())
		fail_run(R);
}

/* --prealloc, untimed: unwritten extents (fallocate) or written blocks
 * (write), made durable so the phases overwrite what is on the disk. */
static void
prealloc_job(struct run *R, struct job *J)
{
	int rc;

	if (R->opt.prealloc == PRE_FALLOCATE) {
		do
			rc = fallocate(J->fd, 0, (off_t)J->base,
			    (off_t)R->opt.size);
		while (rc < 0 && errno == EINTR);
		if (rc < 0) {
			warn("fallocate %s", R->job[0].t.path);
			fail_run(R);
		}
		if (fsync(J->fd) < 0) {
			warn("fsync %s", R->job[0].t.path);
			fail_run(R);
		}
		return;
	}
	setup_phase(R, &J->ph, PH_SEQWRITE, J);
	J->ph.fsync_every = 0;
	J->ph.sync_end = true;
	/* Untimed preparation: as fast as it goes, however --rate paces. */
	J->ph.rate_interval_ns = 0;
	J->ph.steady_pct = 0;
	J->ph.prog = &R->prog;
	progress_start(&R->prog, "prealloc", R->nblocks, R->opt.m.quiet);
	if (phase_run(&J->ph) < 0 || sig_interrupted())
		fail_run(R);
	progress_end(&R->prog);
}

/* Make the files ready: preallocated as asked, and new files as long as
 * --size when the first phase reads or writes in place (a hole reads as
 * zeros).  A file of the user's that is too short stays so: its reads
 * fail at its end. */
void
prepare_files(struct run *R)
{
	const struct options *o = &R->opt;
	uint64_t len = o->shared_file ? o->size * o->jobs : o->size, j;
	struct job *J;
	struct stat st;

	R->written = !R->job[0].t.created || R->opt.prealloc == PRE_WRITE;
	if (R->opt.prealloc != PRE_NONE)
		for (j = 0; j < R->opt.jobs; j++)
			prealloc_job(R, &R->job[j]);
	if (R->opt.prealloc != PRE_NONE)
		drop_after(R, DROP_PREALLOC);
	if (R->opt.phase[0] == PH_CREATE || !R->job[0].t.created)
		return;
	for (j = 0; j < R->opt.jobs; j++) {
		J = &R->job[j];
		if (!owns_file(J))
			continue;
		if (fstat(J->fd, &st) < 0) {
			warn("fstat %s", J->t.path);
			fail_run(R);
		}
		if ((uint64_t)st.st_size < len &&
		    ftruncate(J->fd, (off_t)len) < 0) {
			warn("ftruncate %s", J->t.path);
			fail_run(R);
		}
	}
}

uint64_t
space_needed(const struct run *R)
{
	uint64_t want = R->opt.size * R->opt.jobs, have;
	struct stat st;

	if (!R->opt.m.force || stat(R->opt.path, &st) < 0 ||
	    !S_ISREG(st.st_mode))
		return want;
	have = (uint64_t)st.st_blocks * 512;
	return have >= want ? 0 : want - have;
}

void
open_files(struct run *R)
{
	struct job *J;
	uint64_t j;
	int rc;

	for (j = 0; j < R->opt.jobs; j++) {
		J = &R->job[j];
		J->t.fd = -1;
		J->fd = R->job[0].fd;
		J->base = R->opt.shared_file ? j * R->opt.size : 0;
		if (j > 0 && R->opt.shared_file)
			continue;
		rc = target_open(&J->t, R->opt.path, "frandrw", R->opt.m.force ?
		    TARGET_FORCE : 0, R->opt.direct ? O_DIRECT : 0);
		if (rc < 0) {
			J->t.fd = -1;
			fail_run(R);
		}
		J->fd = J->t.fd;
	}
	for (j = 0; j < R->opt.jobs && R->opt.engine != ENGINE_PSYNC; j++)
		if (aio_open(&R->job[j].aio, R->opt.engine,
		    (unsigned)R->opt.iodepth, R->job[j].fd, R->opt.bs,
		    R->opt.seed) < 0)
			fail_run(R);
}

void
close_files(struct run *R, uint64_t run)
{
	bool keep = R->opt.keep && run == R->opt.m.runs;
	struct job *J;
	uint64_t j;

	for (j = 0; j < R->opt.jobs; j++)
		aio_close(&R->job[j].aio);
	for (j = 0; j < R->opt.jobs; j++) {
		J = &R->job[j];
		if (!owns_file(J))
			continue;
		if (keep && J->t.created)
			fprintf(stderr, "frandrw: kept %s\n", J->t.path);
		if (target_close(&J->t, keep) < 0) {
			J->t.fd = -1;
			fail_run(R);
		}
		J->t.fd = -1;
	}
}
