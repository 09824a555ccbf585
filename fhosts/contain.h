/* contain.h: fhosts' side of fhosts-agent: run the engine so that nothing
 * it starts outlives a stop, keep the temporary directory, relabel a
 * host's records. */
#ifndef FSBENCH_CONTAIN_H
#define FSBENCH_CONTAIN_H

#include <sys/types.h>

#define CONTAIN_LATE 124	/* the deadline passed (as timeout(1)) */

/* Run ARGV (the engine) in a session of its own under this process as a
 * child subreaper, until it ends, INT, TERM or HUP comes, or DEADLINE
 * seconds have passed (0: none); then kill every process still below us.
 * The engine's status, 128 + the signal, or CONTAIN_LATE. */
int contain(char *const argv[], double deadline);

/* Remove the directory DIR once process PID is gone, however it went (a
 * SIGKILL too), if DIR is still the directory it was at the start: fhosts'
 * temporary directory.  In a session of its own, deaf to the terminal. */
int keep_dir(const char *dir, pid_t pid);

/* relabel.c: standard input's record blocks to standard output, each
 * with a host column holding HOST (after label and run), and given
 * OFFSET, "# fleet_host:" and "# clock_offset_s:" of fhosts' own.  0, 3
 * when a block has a host column already, 1 when output failed. */
int relabel(const char *host, const char *offset);

#endif
