/* record-read.h: what lib/record's own files share and no program uses:
 * the helpers (record-block.c) that the text reader (record-read.c) and
 * the JSON Lines reader (record-json.c) both fill blocks with.  Programs
 * include record.h only. */
#ifndef FSBENCH_RECORD_READ_H
#define FSBENCH_RECORD_READ_H
#include <stddef.h>
#include "record.h"

/* S for a message: at most 40 bytes, control bytes as '?'. */
const char *rr_shown(const char *s, char *buf, size_t len);
/* r->err as "SOURCE:LINE: message"; returns -1. */
int rr_fail(struct record_reader *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* [a-z0-9_]+: a column or metadata name. */
int rr_is_name(const char *s);
/* Whether S holds a control byte other than tab. */
int rr_has_control(const char *s);
void rr_add_meta(struct record_block *b, const char *key, const char *val);
/* Split S in place on runs of blanks into at most MAX fields; their
 * number, or -1 when there are more. */
int rr_split(char *s, char **field, int max);
/* Undo the writer's escapes in place. */
void rr_unescape(char *s);
/* The block's key columns from its "# keys:" line; -1 with r->err. */
int rr_resolve_keys(struct record_reader *r, struct record_block *b);
/* One JSON line of a block: 1 taken, 0 it starts the next block (left
 * pending), -1 bad. */
int rr_json_take(struct record_reader *r, struct record_block *b,
    int *started);
#endif
