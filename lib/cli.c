/* cli.c: the shared option-handling shape: program name, usage errors,
 * --version, and a checked close of stdout at exit. */
#include "config.h"

#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static const char *cli_prog = "fsbench";

void
cli_init(const char *prog)
{
	const char *slash;

	if (prog != NULL) {
		slash = strrchr(prog, '/');
		cli_prog = slash ? slash + 1 : prog;
	}
	program_invocation_short_name = (char *)cli_prog;
	atexit(cli_close_stdout);
}

void
cli_usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", cli_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '%s --help' for more information.\n", cli_prog);
	exit(EXIT_USAGE);
}

bool cli_quiet;

void
cli_note(const char *fmt, ...)
{
	va_list ap;

	if (cli_quiet)
		return;
	va_start(ap, fmt);
	vwarnx(fmt, ap);
	va_end(ap);
}

/* WORD in a one-line message: a long option's name without its "=VALUE",
 * control bytes as '?', at most 64 bytes. */
static const char *
option_word(const char *word, char *buf, size_t len)
{
	char *eq;
	size_t i;

	snprintf(buf, len < 65 ? len : 65, "%s", word);
	if (strncmp(buf, "--", 2) == 0 && (eq = strchr(buf, '=')) != NULL)
		*eq = '\0';
	for (i = 0; buf[i] != '\0'; i++)
		if ((unsigned char)buf[i] < 0x20 || buf[i] == 0x7f)
			buf[i] = '?';
	return buf;
}

void
cli_getopt_error(int c, char *const argv[])
{
	const char *word = optind > 0 ? argv[optind - 1] : "";
	char buf[80];

	option_word(word, buf, sizeof(buf));
	if (c == ':')
		cli_usage_error("option '%s' requires an argument", buf);
	/* getopt_long leaves a long option's own code in optopt when it was
	 * given a value it does not take (--plot=1): not a character. */
	if (optopt > 0 && optopt < 0x80 && optopt > ' ' &&
	    strncmp(word, "--", 2) != 0)
		cli_usage_error("invalid option -- '%c'", optopt);
	if (optopt != 0 && strncmp(word, "--", 2) == 0)
		cli_usage_error("option '%s' takes no argument", buf);
	cli_usage_error("unrecognized option '%s'", buf);
}

void
cli_usage_std_options(int column)
{
	printf("  %-*s%s\n", column - 2, "-h, --help", "show this help and exit");
	printf("  %-*s%s\n", column - 2, "-V, --version",
	    "show the version and exit");
}

void
cli_usage_end(const char *exit_status)
{
	printf("Exit status: %s\n\nSee %s(1).\n", exit_status, cli_prog);
	exit(0);
}

void
cli_version(void)
{
	printf("%s (%s) %s\n", cli_prog, PACKAGE_NAME, PACKAGE_VERSION);
	printf("License GPL-3.0-or-later <https://gnu.org/licenses/gpl.html>.\n"
	    "This is free software: you are free to change and redistribute it.\n"
	    "There is NO WARRANTY, to the extent permitted by law.\n");
	exit(0);
}

void
cli_close_stdout(void)
{
	int failed = ferror(stdout);

	if (fclose(stdout) != 0 || failed) {
		/* A reader that went away is not our failure to report twice. */
		if (errno == EPIPE)
			_exit(EXIT_RUN_FAILED);
		warn("write error on standard output");
		_exit(EXIT_RUN_FAILED);
	}
}
