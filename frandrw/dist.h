/* dist.h: --dist, skewed random offsets with fio's random_distribution
 * parameters (zipf:THETA, pareto:H, normal:PCT), drawn from our own
 * generator so a seed gives the same offsets on every machine. */
#ifndef FRANDRW_DIST_H
#define FRANDRW_DIST_H

#include <stdint.h>

#include "rng.h"

enum dist_kind { DIST_UNIFORM, DIST_ZIPF, DIST_PARETO, DIST_NORMAL };

struct dist_spec {
	enum dist_kind kind;
	double param;
};

struct dist {
	enum dist_kind kind;
	uint64_t n;
	double s;		/* zipf: the exponent */
	double h_x1, h_n, accept;	/* zipf: rejection-inversion */
	double pow;		/* pareto: log(h) / log(1 - h) */
	double sigma;		/* normal: in blocks */
};

/* "uniform", "zipf:THETA" (0 < THETA <= 100), "pareto:H" (0 < H < 1) or
 * "normal:PCT" (0 < PCT <= 100).  0, or -1 when S is none of these. */
int dist_parse(const char *s, struct dist_spec *out);
/* "zipf:1.2" and the like, for the metadata. */
const char *dist_name(const struct dist_spec *d, char *buf, unsigned len);
void dist_init(struct dist *d, const struct dist_spec *spec, uint64_t n);
/* A rank in [0, n): 0 the most likely (zipf, pareto) or the middle
 * (normal).  The caller scatters ranks over the file. */
uint64_t dist_rank(struct dist *d, struct rng *r);

#endif
