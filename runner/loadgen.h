/* Background load generators: one file per load under loads/, each ending
 * in one `const struct hg_load_ops`, listed in HG_LOAD_LIST. */
#ifndef HG_LOADGEN_H
#define HG_LOADGEN_H

#include <stddef.h>

struct hg_load_run;     /* runtime state of one load, owned by the runner */

/* Load parameters, as bits: which a type takes and which it needs. */
enum hg_lparam {
	HG_LP_WORKERS = 1u << 0,
	HG_LP_SIZE    = 1u << 1,
	HG_LP_DIR     = 1u << 2,
	HG_LP_CONNECT = 1u << 3,
	HG_LP_LISTEN  = 1u << 4,
	HG_LP_COMMAND = 1u << 5,
};

struct hg_load_ops {
	const char *name;
	const char *summary;
	unsigned takes;         /* HG_LP_* accepted */
	unsigned needs;         /* HG_LP_* required */
	int (*start)(struct hg_load_run *l);   /* NULL until the loads land */
	void (*stop)(struct hg_load_run *l);
};

#define HG_LOAD_LIST(X) X(cpu) X(memory) X(io) X(fork) X(procfs) X(tcp_stream) X(exec)

#define HG_LOAD_DECLARE(n) extern const struct hg_load_ops hg_load_##n;
HG_LOAD_LIST(HG_LOAD_DECLARE)
#undef HG_LOAD_DECLARE

extern const struct hg_load_ops *const hg_loads[];
extern const size_t hg_n_loads;

const struct hg_load_ops *hg_load_find(const char *name);

#endif
