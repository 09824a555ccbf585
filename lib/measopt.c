/* measopt.c: the options fzero, frandrw and fload share. */
#include "config.h"

#include <string.h>

#include "cli.h"
#include "measopt.h"
#include "record.h"

void
measopt_init(struct measopt *m, enum drop_method drop, bool sync_end)
{
	memset(m, 0, sizeof(*m));
	m->runs = 1;
	autorun_init(&m->autorun);
	m->drop = drop;
	m->sync_end = sync_end;
}

static void
parse_sync(struct measopt *m, const char *arg)
{
	if (strcmp(arg, "end") == 0)
		m->sync_end = true;
	else if (strcmp(arg, "none") == 0)
		m->sync_end = false;
	else
		cli_usage_error("invalid --sync mode '%s' (end or none)", arg);
}

bool
measopt_parse(struct measopt *m, int c, const char *arg)
{
	switch (c) {
	case 'l':
		m->label = arg;
		break;
	case 'n':
		autorun_arg_runs(&m->autorun, "--runs", arg, &m->runs);
		break;
	case 'q':
		m->quiet = true;
		break;
	case MEASOPT_CI_TARGET:
		autorun_arg_target(&m->autorun, arg);
		break;
	case MEASOPT_MAX_RUNS:
		autorun_arg_max(&m->autorun, arg);
		break;
	case MEASOPT_DROP:
		if (drop_parse(arg, &m->drop) < 0)
			cli_usage_error("invalid --drop method '%s' (fadvise, "
			    "sys or none)", arg);
		break;
	case MEASOPT_FORMAT:
		record_format_option(arg);
		break;
	case MEASOPT_START_AT:
		startat_arg(&m->start, arg);
		break;
	case MEASOPT_SETTLE:
		m->settle = true;
		break;
	case MEASOPT_REQUIRE_IDLE:
		m->require_idle = true;
		break;
	case MEASOPT_NO_SPACE_CHECK:
		m->no_space_check = true;
		break;
	case MEASOPT_FORCE:
		m->force = true;
		break;
	case MEASOPT_SYNC:
		parse_sync(m, arg);
		break;
	default:
		return false;
	}
	return true;
}

void
measopt_check(struct measopt *m)
{
	autorun_check(&m->autorun, &m->runs);
}
