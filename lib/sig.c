/* sig.c: the flag of the termination signal taken, and dying of it. */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sig.h"

volatile sig_atomic_t sig_caught;

static void
on_signal(int sig)
{
	sig_take(sig);
}

void
sig_catch(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
	signal(SIGXFSZ, SIG_IGN);
}

void
sig_die(void)
{
	int sig = sig_caught ? sig_caught : SIGTERM;
	sigset_t set;

	fflush(stderr);
	signal(sig, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	raise(sig);
	/* Blocked (lib/run takes them blocked): it arrives here. */
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	_exit(128 + sig);
}
