/* Load 'tcp_stream': a full-speed TCP stream (loopback by default; connect: host:port or listen: port) */
#include "loadgen.h"

const struct hg_load_ops hg_load_tcp_stream = {
	.name = "tcp_stream",
	.summary = "a full-speed TCP stream (loopback by default; connect: host:port or listen: port)",
	.takes = HG_LP_CONNECT | HG_LP_LISTEN,
	.needs = 0,
};
