/* contain.h: run fhosts' engine so that nothing it starts outlives a stop. */
#ifndef FSBENCH_CONTAIN_H
#define FSBENCH_CONTAIN_H

/* Run ARGV (the engine) in a session of its own under this process as a
 * child subreaper, until it ends or INT, TERM or HUP comes; then kill
 * every process still below us.  The engine's status, or 128 + the
 * signal. */
int contain(char *const argv[]);

#endif
