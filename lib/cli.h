/* cli.h: the option-handling shape every tool shares (util-linux's
 * boilerplate): usage errors, --version, and close_stdout at exit. */
#ifndef FSBENCH_CLI_H
#define FSBENCH_CLI_H

#include <stdbool.h>

#define EXIT_RUN_FAILED	1
#define EXIT_USAGE	2

/* Set the program name for messages and register the stdout check. */
void cli_init(const char *prog);
/* "PROG: MESSAGE\nTry 'PROG --help' for more information." and exit 2. */
__attribute__((noreturn, format(printf, 1, 2)))
void cli_usage_error(const char *fmt, ...);
/* -q: cli_note says nothing.  Set once the options are parsed. */
extern bool cli_quiet;
/* "PROG: MESSAGE" on stderr, as warnx, unless cli_quiet: a note a -q run
 * does not want. */
__attribute__((format(printf, 1, 2)))
void cli_note(const char *fmt, ...);
/* For programs that word getopt's errors themselves (opterr = 0, or a ':'
 * leading the option string): what getopt_long's return C (':' or '?')
 * and optopt mean, as a usage error. */
__attribute__((noreturn))
void cli_getopt_error(int c, char *const argv[]);
/* --help has one shape in every program (util-linux's USAGE_* idea):
 *
 *	Usage: PROG [options] ARGS
 *	what it does, a few lines
 *
 *	Options:
 *	  -x, --xxx ...
 *	  -h, --help          show this help and exit
 *	  -V, --version       show the version and exit
 *
 *	notes
 *	Exit status: ...
 *
 *	See PROG(1).
 *
 * The program prints up to its last option, then cli_usage_std_options()
 * with its option column, its notes, and cli_usage_end(). */
#define CLI_USAGE_OPTIONS	"\nOptions:\n"
void cli_usage_std_options(int column);
/* "Exit status: TEXT", "See PROG(1).", and exit 0. */
__attribute__((noreturn)) void cli_usage_end(const char *exit_status);
/* "PROG (fsbench) 0.1.0" and license, exit 0. */
__attribute__((noreturn)) void cli_version(void);
/* Flush and close stdout; a failure (full disk, closed pipe) is an error
 * exit, not silently truncated results.  Registered by cli_init. */
void cli_close_stdout(void);

#endif
