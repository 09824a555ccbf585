/* dirrules [NAME...]: lib/record's direction rules, one "MATCH TEXT DIR"
 * line each, or each NAME's direction as "NAME DIR"; plot-awk.sh holds
 * plot/reader.awk's copy equal to them. */
#include "config.h"

#include <stdio.h>

#include "record.h"

int
main(int argc, char *argv[])
{
	static const char *const how[] = { "none", "exact", "prefix", "suffix" };
	const struct record_dir_rule *r;
	int i;

	if (argc == 1)
		for (r = record_dir_rules; r->text != NULL; r++)
			printf("%s %s %d\n", how[r->match], r->text, r->dir);
	for (i = 1; i < argc; i++)
		printf("%s %d\n", argv[i], record_direction(argv[i]));
	return 0;
}
