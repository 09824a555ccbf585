/* sig.h: the termination signal a tool took, and its death by it.  A tool
 * takes SIGINT, SIGTERM and SIGHUP one of two ways: a handler that only
 * sets the flag (sig_catch: the measuring loops check sig_interrupted), or
 * blocked and taken at known points (lib/run: fmatrix and fcrash, which
 * pass it on to their child first).  Either way the first one is
 * sig_caught, and once what the tool made is undone it dies of that very
 * signal (sig_die), so its parent sees a signal and not an exit status. */
#ifndef FSBENCH_SIG_H
#define FSBENCH_SIG_H

#include <signal.h>

/* The first termination signal taken, or 0. */
extern volatile sig_atomic_t sig_caught;

/* Handlers for SIGINT, SIGTERM, SIGHUP and SIGPIPE that set sig_caught
 * and nothing else (no SA_RESTART: a sleep or a wait ends early, so the
 * loop sees it); SIGXFSZ is ignored, so EFBIG is an error we report. */
void sig_catch(void);

/* SIG was taken (by a handler, or by sigwait on a blocked set): the
 * first one stays.  Async-signal-safe. */
static inline void
sig_take(int sig)
{
	if (sig_caught == 0)
		sig_caught = sig;
}

static inline int
sig_interrupted(void)
{
	return sig_caught != 0;
}

/* Flush stderr, restore the default action of sig_caught (SIGTERM when
 * none) and raise it; unblocked, it ends the process. */
__attribute__((noreturn)) void sig_die(void);

#endif
