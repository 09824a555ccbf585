/* output.c: fload's record: its opening lines, made at the start; its
 * metadata (the job, each load as resolved); the rows of every run. */
#include "config.h"

#include <err.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "drop.h"
#include "layout.h"
#include "record.h"
#include "startat.h"
#include "state.h"

/* The opening lines are made at the start, so the load average and the
 * date are from before our own work, and printed with the rows. */
void
begin_record(struct fload *x)
{
	FILE *f = open_memstream(&x->head, &x->headlen);

	if (f == NULL)
		err(EXIT_RUN_FAILED, "open_memstream");
	record_begin(&x->w, f, "fload", x->argc, x->argv);
	if (fclose(f) != 0)
		err(EXIT_RUN_FAILED, "open_memstream");
}

static void
print_meta(struct fload *x, const char *interrupted)
{
	char buf[8192];
	size_t i;

	record_meta_fs(&x->w, x->dir, &x->fs);
	record_meta(&x->w, "drop", "%s", drop_describe(x->m.drop, &x->fs));
	record_meta(&x->w, "dev_stat", "%s", x->dev.found ? x->dev.name :
	    "none");
	record_meta(&x->w, "settle", "%s", x->m.settle ? "yes" : "no");
	startat_meta(&x->m.start, &x->w);
	if (x->job.kind == JOB_COMMAND)
		record_meta(&x->w, "job", "%s", record_quote_argv(x->cmd_argc,
		    x->job.argv, buf, sizeof(buf)));
	else {
		job_describe(&x->job, buf, sizeof(buf));
		record_meta(&x->w, "job", "%s", buf);
	}
	record_meta(&x->w, "mem_base_bytes", "%" PRIu64, x->mem_base);
	record_meta(&x->w, "order", "%s", x->grouped ? "grouped" : "interleave");
	record_meta(&x->w, "warmup_s", "%g", x->warmup_s);
	for (i = 0; i < x->nloads; i++) {
		struct load *l = &x->loads[i];
		char key[FLOAD_NAME_MAX + 16];

		if ((l->kind->flags & LK_NOTHING))
			continue;
		snprintf(key, sizeof(key), "load_%s", l->key);
		spec_describe(l, buf, sizeof(buf));
		/* cmd: the command text; others: the column, resolved */
		if ((l->kind->flags & LK_COMMAND))
			record_meta(&x->w, key, "%s", l->cmd);
		else
			record_meta(&x->w, key, "%s = %s", l->name, buf);
		if (l->note[0] != '\0') {
			snprintf(key, sizeof(key), "load_%s_note", l->key);
			record_meta(&x->w, key, "%s", l->note);
		}
		if (l->errors[0] != '\0') {
			snprintf(key, sizeof(key), "load_%s_error", l->key);
			record_meta(&x->w, key, "%s", l->errors);
		}
	}
	if (interrupted != NULL)
		record_meta(&x->w, "interrupted", "%s", interrupted);
}

void
print_record(struct fload *x, const char *interrupted)
{
	static const char *const base[] = {
		"label", "run", "load", "seconds", "user_s", "sys_s", "cpu_pct",
		"majflt", "minflt", "inblock", "oublock", "load_ops",
		"load_ops_per_s", "load_mib_per_s", "load_cpu_pct",
		"sys_iowait_pct", "sys_idle_pct", "ratio", "exit",
	};
	static const char *const copy[] = { "job_files_per_s", "job_mib_per_s" };
	const char *cols[19 + 2 + 5];
	bool is_copy = x->job.kind == JOB_COPY;
	int ncols = 0;
	double none_sum = 0, none_mean = NAN;
	size_t i, nnone = 0;

	for (i = 0; i < x->nres; i++)
		if ((x->res[i].load->kind->flags & LK_NOTHING)) {
			none_sum += x->res[i].seconds;
			nnone++;
		}
	if (nnone > 0)
		none_mean = none_sum / (double)nnone;
	for (i = 0; i < 19; i++)
		cols[ncols++] = base[i];
	for (i = 0; is_copy && i < 2; i++)
		cols[ncols++] = copy[i];
	for (i = 0; i < LAYOUT_NDEV; i++)
		cols[ncols++] = layout_dev_names[i];
	fwrite(x->head, 1, x->headlen, stdout);
	x->w.out = stdout;
	print_meta(x, interrupted);
	record_header(&x->w, cols, ncols, 3);
	for (i = 0; i < x->total; i++) {
		const struct result *r = &x->res[i];

		if (r->load == NULL)
			continue;	/* not measured: interrupted */
		record_str(&x->w, x->label);
		record_u64(&x->w, r->run);
		record_str(&x->w, r->load->name);
		record_num(&x->w, r->seconds);
		record_num(&x->w, r->u.user_s);
		record_num(&x->w, r->u.sys_s);
		record_num(&x->w, r->cpu_pct);
		record_i64(&x->w, r->u.majflt);
		record_i64(&x->w, r->u.minflt);
		record_i64(&x->w, r->u.inblock);
		record_i64(&x->w, r->u.oublock);
		record_num(&x->w, r->load_ops);
		record_num(&x->w, r->load_ops_per_s);
		record_num(&x->w, r->load_mib_per_s);
		record_num(&x->w, r->load_cpu_pct);
		record_num(&x->w, r->iowait_pct);
		record_num(&x->w, r->idle_pct);
		record_num(&x->w, r->seconds / none_mean);
		record_i64(&x->w, r->exit);
		if (is_copy) {
			record_num(&x->w, (double)r->job.ops / r->seconds);
			record_num(&x->w, (double)r->job.bytes / r->seconds /
			    1048576.0);
		}
		layout_dev_cells(&x->w, r->dev_ok, &r->dev);
		if (record_end_row(&x->w) < 0)
			break;
	}
}
