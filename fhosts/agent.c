/* agent.c: fhosts-agent, the small program fhosts(1) runs on each host
 * (and beside itself): the clock probe, and the wrapper that starts a
 * command at the host's instant and stops it when its connection is lost.
 * fhosts is a script; what needs a clock, a poll or a pidfd is here. */
#include "config.h"

#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "contain.h"
#include "sig.h"
#include "startat.h"
#include "target.h"
#include "xio.h"
#include "xalloc.h"

#define BANNER		"fhosts-agent"
#define MAX_ROUNDS	100
#define PROBE_DEADLINE_S	60	/* a whole probe, the ssh login included */
#define MAX_DEADLINE_S	(7 * 86400)
#define GRACE_MS	10000	/* after SIGTERM, before SIGKILL */

enum mode { M_NONE, M_NOW, M_SERVE, M_PROBE, M_RUN, M_CONTAIN, M_KEEP,
	M_RELABEL };

static const struct option longopts[] = {
	{ "argv", required_argument, NULL, 'A' },
	{ "contain", no_argument, NULL, 'C' },
	{ "deadline", required_argument, NULL, 'E' },
	{ "help", no_argument, NULL, 'h' },
	{ "keep-dir", required_argument, NULL, 'K' },
	{ "now", no_argument, NULL, 'N' },
	{ "offset", required_argument, NULL, 'O' },
	{ "pid", required_argument, NULL, 'I' },
	{ "probe", required_argument, NULL, 'P' },
	{ "push-dir", required_argument, NULL, 'D' },
	{ "relabel", required_argument, NULL, 'L' },
	{ "run", required_argument, NULL, 'R' },
	{ "serve", no_argument, NULL, 'S' },
	{ "starts", required_argument, NULL, 'T' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

__attribute__((noreturn)) static void
usage(void)
{
	printf("Usage: fhosts-agent [options] [--] [COMMAND [ARG...]]\n"
	    "fhosts(1)'s helper on each host.  With --run: run COMMAND at this\n"
	    "host's instant of the fleet's start, and stop it when the connection\n"
	    "that started it is lost.  With --probe: measure a host's clock\n"
	    "against this one, COMMAND being the ssh command that runs --serve\n"
	    "there.\n"
	    CLI_USAGE_OPTIONS
	    "      --run NAME        run COMMAND as host NAME of the fleet\n"
	    "      --starts LIST     NAME=EPOCH,... : each host's start instant\n"
	    "                        by its own clock; fzero, frandrw and fload\n"
	    "                        get it as --start-at, other commands are\n"
	    "                        started at it\n"
	    "      --argv HEX,...    the command's words, each as hex bytes: what\n"
	    "                        fhosts sends, so no shell or engine on the\n"
	    "                        way (pdsh and clush replace %%h) can change\n"
	    "                        them\n"
	    "      --push-dir DIR    the programs were pushed to DIR: run them\n"
	    "                        from there, and remove DIR at the end\n"
	    "      --probe ROUNDS    run SSH-COMMAND (which runs --serve on a\n"
	    "                        host), and print: the host's version, its\n"
	    "                        clock offset in seconds and the round trip\n"
	    "                        of the fastest of ROUNDS exchanges\n"
	    "      --serve           print the version, then this clock for\n"
	    "                        every line read\n"
	    "      --now             print this clock (seconds since the epoch)\n"
	    "      --contain         run COMMAND (fhosts' engine) so that on INT,\n"
	    "                        TERM or HUP, or when it ends, no process it\n"
	    "                        started is left\n"
	    "      --deadline S      with --probe or --contain: give up after S\n"
	    "                        seconds in all (--contain then exits 124);\n"
	    "                        --probe's default is 60\n"
	    "      --keep-dir DIR    with --pid PID: remove DIR (fhosts' temporary\n"
	    "                        directory) once PID has gone, however it went\n"
	    "      --relabel HOST    copy standard input's record blocks with a\n"
	    "                        host column holding HOST; malformed blocks\n"
	    "                        are dropped with a note\n"
	    "      --offset S        with --relabel: add # fleet_host: and\n"
	    "                        # clock_offset_s: S (the host's own go)\n");
	cli_usage_std_options(24);
	printf("\nfhosts runs it on every host (it is installed beside the other\n"
	    "fsbench programs, or pushed with them); people rarely need to.\n");
	cli_usage_end("the command's own status with --run (1 when it could\n"
	    "not run), 0 done, 1 failed, 2 usage error.");
}

static void
print_now(void)
{
	char buf[32];

	printf("%s\n", startat_format(startat_now_ns(), buf, sizeof(buf)));
	fflush(stdout);
}

/* One clock reading per line read, until end of input. */
static int
serve(void)
{
	char line[64];

	printf("%s %s\n", BANNER, PACKAGE_VERSION);
	fflush(stdout);
	while (fgets(line, sizeof(line), stdin) != NULL)
		print_now();
	return ferror(stdout) ? EXIT_RUN_FAILED : 0;
}

/* A line from FD before DUE (this clock, ns), without its newline; -1
 * otherwise.  The deadline is the whole exchange's: a host that answers a
 * byte at a time cannot stretch it. */
static int
read_line(int fd, char *buf, size_t len, int64_t due)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	size_t n = 0;

	while (n + 1 < len) {
		int64_t left = due - startat_now_ns();

		if (left <= 0 || poll(&p, 1, (int)(left / 1000000 + 1)) <= 0)
			return -1;
		if (read(fd, buf + n, 1) != 1)
			return -1;
		if (buf[n] == '\n') {
			buf[n] = '\0';
			return 0;
		}
		n++;
	}
	return -1;
}

static pid_t
spawn_piped(char *const argv[], int *to, int *from)
{
	int in[2], out[2];
	pid_t pid;

	if (pipe2(in, O_CLOEXEC) < 0 || pipe2(out, O_CLOEXEC) < 0)
		err(EXIT_RUN_FAILED, "pipe");
	if ((pid = fork()) < 0)
		err(EXIT_RUN_FAILED, "fork");
	if (pid == 0) {
		if (dup2(in[0], 0) < 0 || dup2(out[1], 1) < 0)
			_exit(127);
		execvp(argv[0], argv);
		warn("%s", argv[0]);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	*to = in[1];
	*from = out[0];
	return pid;
}

/* The offset of the served clock from ours: its reading minus the middle
 * of our round trip, from the exchange with the shortest round trip (the
 * one least disturbed by the network and the scheduler). */
static int
probe(long rounds, char *const argv[], pid_t parent, double deadline)
{
	int64_t due = startat_now_ns() + (int64_t)(deadline * 1e9);
	char line[128], version[64];
	int64_t t0, t1, theirs, best_rtt = INT64_MAX, best_off = 0;
	int to, from, status;
	long i;
	pid_t pid;

	signal(SIGPIPE, SIG_IGN);
	/* fhosts gone (a SIGKILL), the probe goes too: its ssh then sees
	 * the end of its input and closes. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
		return EXIT_RUN_FAILED;
	pid = spawn_piped(argv, &to, &from);
	if (read_line(from, line, sizeof(line), due) < 0 ||
	    sscanf(line, BANNER " %63s", version) != 1) {
		warnx("%s: no answer from fhosts-agent --serve within %g s",
		    argv[0], deadline);
		goto fail;
	}
	for (i = 0; i < rounds; i++) {
		t0 = startat_now_ns();
		if (write(to, "\n", 1) != 1 ||
		    read_line(from, line, sizeof(line), due) < 0) {
			warnx("%s: the clock exchange broke off or took over "
			    "%g s", argv[0], deadline);
			goto fail;
		}
		t1 = startat_now_ns();
		if (startat_parse(line, &theirs) < 0) {
			warnx("%s: not a clock reading: '%.40s'", argv[0], line);
			goto fail;
		}
		if (t1 - t0 < best_rtt) {
			best_rtt = t1 - t0;
			best_off = theirs - (t0 + best_rtt / 2);
		}
	}
	close(to);
	close(from);
	waitpid(pid, &status, 0);
	printf("%s %s%.6f %.6f\n", version, best_off < 0 ? "-" : "",
	    (double)(best_off < 0 ? -best_off : best_off) / 1e9,
	    (double)best_rtt / 1e9);
	return 0;
fail:
	close(to);
	close(from);
	kill(pid, SIGTERM);
	waitpid(pid, &status, 0);
	return EXIT_RUN_FAILED;
}

/* NAME's instant in "NAME=EPOCH,NAME=EPOCH,...". */
static const char *
find_start(const char *list, const char *name, char *buf, size_t len)
{
	size_t n = strlen(name);
	const char *p = list, *end;

	while (*p != '\0') {
		end = strchr(p, ',');
		if (end == NULL)
			end = p + strlen(p);
		if ((size_t)(end - p) > n && strncmp(p, name, n) == 0 &&
		    p[n] == '=' && (size_t)(end - p - (ptrdiff_t)n) < len) {
			memcpy(buf, p + n + 1, (size_t)(end - p) - n - 1);
			buf[(size_t)(end - p) - n - 1] = '\0';
			return buf;
		}
		p = *end == ',' ? end + 1 : end;
	}
	return NULL;
}

static bool
takes_start_at(const char *prog)
{
	const char *base = strrchr(prog, '/');

	base = base ? base + 1 : prog;
	return strcmp(base, "fzero") == 0 || strcmp(base, "frandrw") == 0 ||
	    strcmp(base, "fload") == 0;
}

/* The pushed programs' directory: its plain files, then itself.  Through
 * its descriptor, and only what fhosts put there. */
static void
remove_push_dir(const char *dir)
{
	DIR *d;
	struct dirent *e;
	int fd;

	if (dir == NULL)
		return;
	if ((fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0 ||
	    (d = fdopendir(fd)) == NULL) {
		warn("%s", dir);
		return;
	}
	while ((e = readdir(d)) != NULL)
		if (e->d_type == DT_REG && unlinkat(dirfd(d), e->d_name, 0) < 0)
			warn("%s/%s", dir, e->d_name);
	closedir(d);
	if (rmdir(dir) < 0)
		warn("%s", dir);
}

static void
on_signal(int sig)
{
	sig_take(sig);
}

static void
catch_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa = { .sa_handler = on_signal };
	size_t i;

	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

/* Wait for the child; stop it (TERM, then KILL after a grace) when a
 * signal comes or our standard output loses its reader: the connection
 * that started us is gone, and nobody is left to read the results. */
static int
watch(pid_t pid, int pidfd)
{
	struct pollfd p[2] = {
		{ .fd = pidfd, .events = POLLIN },
		{ .fd = 1, .events = 0 },
	};
	int status, timeout = -1;
	bool stopping = false;

	for (;;) {
		if ((sig_caught != 0 || (p[1].revents & (POLLERR | POLLHUP))) &&
		    !stopping) {
			kill(pid, SIGTERM);
			stopping = true;
			timeout = GRACE_MS;
			p[1].fd = -1;
		}
		if (waitpid(pid, &status, WNOHANG) == pid)
			return status;
		if (poll(p, 2, timeout) == 0 && stopping)
			kill(pid, SIGKILL);
	}
}

static int
run(const char *name, const char *starts, const char *dir, int argc,
    char *argv[])
{
	char at[32], done[32], **args;
	struct startat s = { .on = false };
	int status, pidfd, i, n = 0;
	pid_t pid;

	if (find_start(starts, name, at, sizeof(at)) == NULL)
		cli_usage_error("no start instant for '%s' in --starts", name);
	if (startat_parse(at, &s.at_ns) == 0 && s.at_ns <= startat_now_ns())
		errx(EXIT_RUN_FAILED, "the start instant was %.3f s past when "
		    "this host was reached: give fhosts a longer --start-in",
		    (double)(startat_now_ns() - s.at_ns) / 1e9);
	startat_arg(&s, at);
	/* fhosts reads text records back (and makes JSON at the end) */
	if (setenv("FSBENCH_FORMAT", "text", 1) != 0)
		err(EXIT_RUN_FAILED, "setenv");
	if (dir != NULL) {
		const char *path = getenv("PATH");
		char *np;

		if (asprintf(&np, "%s:%s", dir, path ? path : "/usr/bin:/bin") < 0)
			err(EXIT_RUN_FAILED, "asprintf");
		setenv("PATH", np, 1);
		free(np);
	}
	args = xcalloc((size_t)argc + 3, sizeof(*args));
	args[n++] = argv[0];
	if (takes_start_at(argv[0])) {
		args[n++] = "--start-at";
		args[n++] = at;
	}
	for (i = 1; i < argc; i++)
		args[n++] = argv[i];
	catch_signals();
	if (!takes_start_at(argv[0])) {
		/* Not ours: it starts when we let it, and we say when. */
		if (startat_wait(&s) < 0)
			goto stopped;
		printf("#fhosts-agent started_at=%s\n",
		    startat_format(s.started_ns, done, sizeof(done)));
	}
	fflush(stdout);
	if ((pid = fork()) < 0)
		err(EXIT_RUN_FAILED, "fork");
	if (pid == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		execvp(args[0], args);
		warn("%s", args[0]);
		_exit(127);
	}
	if ((pidfd = pidfd_open(pid, 0)) < 0)
		err(EXIT_RUN_FAILED, "pidfd_open");
	status = watch(pid, pidfd);
	free(args);
	remove_push_dir(dir);
	printf("#fhosts-agent exit=%d done_at=%s\n",
	    WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status),
	    startat_format(startat_now_ns(), done, sizeof(done)));
	fflush(stdout);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
stopped:
	free(args);
	remove_push_dir(dir);
	return 128 + sig_caught;
}

static int
hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* "HEX,HEX,..." as an argv (each word's bytes in hex; empty words too). */
static char **
hex_argv(const char *s, int *argc)
{
	size_t n = 1, i, len = strlen(s);
	char **v, *w;
	const char *p;
	int a = 0, hi, lo;

	for (p = s; *p; p++)
		n += *p == ',';
	v = xcalloc(n + 1, sizeof(*v));
	w = xmalloc(len + n);
	v[a] = w;
	for (i = 0; i <= len; i++) {
		if (s[i] == ',' || s[i] == '\0') {
			*w++ = '\0';
			if (s[i] == ',')
				v[++a] = w;
			continue;
		}
		if ((hi = hex_digit(s[i])) < 0 || (lo = hex_digit(s[i + 1])) < 0 ||
		    (hi == 0 && lo == 0))
			cli_usage_error("invalid --argv: hex bytes, words separated "
			    "by ','");
		*w++ = (char)(hi << 4 | lo);
		i++;
	}
	if (v[0][0] == '\0')
		cli_usage_error("invalid --argv: an empty command");
	*argc = a + 1;
	return v;
}

static double
deadline_arg(const char *s)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno != 0 || end == s || *end != '\0' || !(v > 0) ||
	    v > MAX_DEADLINE_S)
		cli_usage_error("invalid --deadline '%s' (seconds, above 0, "
		    "at most %d)", s, MAX_DEADLINE_S);
	return v;
}

static long
pid_arg(const char *s)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno != 0 || *end != '\0' || v < 2 || v > INT_MAX)
		cli_usage_error("invalid --pid '%s'", s);
	return v;
}

static long
rounds_arg(const char *s)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno != 0 || *end != '\0' || v < 1 || v > MAX_ROUNDS)
		cli_usage_error("invalid --probe rounds '%s' (1 to %d)", s,
		    MAX_ROUNDS);
	return v;
}

struct agent_opts {
	enum mode mode;
	const char *name, *starts, *dir, *hex, *offset;
	long rounds, keep_pid;
	double deadline;
};

/* The options into O; returns the index of the first operand. */
static int
parse_options(int argc, char *argv[], struct agent_opts *o)
{
	int c;

	while ((c = getopt_long(argc, argv, "+hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage();
		case 'V':
			cli_version();
		case 'C':
			o->mode = M_CONTAIN;
			break;
		case 'N':
			o->mode = M_NOW;
			break;
		case 'S':
			o->mode = M_SERVE;
			break;
		case 'P':
			o->mode = M_PROBE;
			o->rounds = rounds_arg(optarg);
			break;
		case 'R':
		case 'L':
			o->mode = c == 'R' ? M_RUN : M_RELABEL;
			o->name = optarg;
			break;
		case 'T':
			o->starts = optarg;
			break;
		case 'D':
			o->dir = optarg;
			break;
		case 'A':
			o->hex = optarg;
			break;
		case 'K':
			o->mode = M_KEEP;
			o->dir = optarg;
			break;
		case 'I':
			o->keep_pid = pid_arg(optarg);
			break;
		case 'E':
			o->deadline = deadline_arg(optarg);
			break;
		case 'O':
			o->offset = optarg;
			break;
		default:
			cli_usage_error("invalid option");
		}
	}
	return optind;
}

/* A host name as fhosts checks it, and an offset that is a number. */
static bool
relabel_args_ok(const char *name, const char *offset)
{
	return name != NULL && name[0] != '\0' && strlen(name) <= 255 &&
	    strspn(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnop"
	    "qrstuvwxyz0123456789._:@-") == strlen(name) &&
	    (offset == NULL || strspn(offset, "-+.0123456789e") ==
	    strlen(offset));
}

int
main(int argc, char *argv[])
{
	struct agent_opts o = { .mode = M_NONE };
	/* Before anything else: who started us, to tell when it is gone. */
	pid_t parent = getppid();
	int first;

	cli_init("fhosts-agent");
	first = parse_options(argc, argv, &o);
	argc -= first;
	argv += first;
	if (o.hex != NULL) {
		if (o.mode != M_RUN || argc > 0)
			cli_usage_error("--argv is for --run, instead of -- COMMAND");
		argv = hex_argv(o.hex, &argc);
	}
	if ((o.mode == M_PROBE || o.mode == M_RUN || o.mode == M_CONTAIN) &&
	    argc == 0)
		cli_usage_error("missing the command after --");
	if ((o.mode == M_NOW || o.mode == M_SERVE || o.mode == M_KEEP ||
	    o.mode == M_RELABEL) && argc > 0)
		cli_usage_error("extra operand '%s'", argv[0]);
	switch (o.mode) {
	case M_NOW:
		print_now();
		return 0;
	case M_SERVE:
		return serve();
	case M_PROBE:
		return probe(o.rounds, argv, parent,
		    o.deadline > 0 ? o.deadline : PROBE_DEADLINE_S);
	case M_CONTAIN:
		return contain(argv, o.deadline);
	case M_KEEP:
		if (o.keep_pid == 0 || o.dir == NULL)
			cli_usage_error("--keep-dir takes --pid PID");
		return keep_dir(o.dir, (pid_t)o.keep_pid);
	case M_RELABEL:
		if (!relabel_args_ok(o.name, o.offset))
			cli_usage_error("--relabel takes a host name, and a "
			    "number as --offset");
		return relabel(o.name, o.offset);
	case M_RUN:
		if (o.starts == NULL)
			cli_usage_error("--run needs --starts");
		return run(o.name, o.starts, o.dir, argc, argv);
	default:
		cli_usage_error("give --run, --probe, --serve, --now, --contain, "
		    "--keep-dir or --relabel");
	}
}
