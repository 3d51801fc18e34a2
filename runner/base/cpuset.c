/* SPDX-License-Identifier: GPL-2.0-or-later */
/* CPU list parsing and formatting. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cpuset.h"

static int parse_cpu(const char **p, unsigned *cpu, char err[HG_ERRLEN], const char *s)
{
	if (!isdigit((unsigned char)**p)) {
		snprintf(err, HG_ERRLEN,
			 "expected CPU numbers such as \"0-3,6\" or a list [0, 1], got '%s'", s);
		return -1;
	}
	char *end;
	unsigned long v = strtoul(*p, &end, 10);
	if (v >= CPU_SETSIZE) {
		snprintf(err, HG_ERRLEN, "CPU %lu is out of range (0..%d)", v, CPU_SETSIZE - 1);
		return -1;
	}
	*cpu = (unsigned)v;
	*p = end;
	return 0;
}

int hg_cpuset_parse(const char *s, cpu_set_t *set, char err[HG_ERRLEN])
{
	const char *p = s;
	CPU_ZERO(set);
	if (!*p) {
		snprintf(err, HG_ERRLEN, "empty CPU list: give CPUs such as \"0-1\" or leave cpus out");
		return -1;
	}
	while (*p) {
		unsigned lo, hi;
		if (parse_cpu(&p, &lo, err, s) != 0)
			return -1;
		hi = lo;
		if (*p == '-') {
			p++;
			if (parse_cpu(&p, &hi, err, s) != 0)
				return -1;
			if (hi < lo) {
				snprintf(err, HG_ERRLEN, "range %u-%u runs backwards in '%s'", lo, hi, s);
				return -1;
			}
		}
		for (unsigned c = lo; c <= hi; c++) {
			if (CPU_ISSET(c, set)) {
				snprintf(err, HG_ERRLEN, "CPU %u is listed twice in '%s'", c, s);
				return -1;
			}
			CPU_SET(c, set);
		}
		if (*p == ',')
			p++;
		else if (*p) {
			snprintf(err, HG_ERRLEN, "unexpected '%c' in CPU list '%s' (write e.g. \"0-3,6\")",
				 *p, s);
			return -1;
		}
	}
	return 0;
}

const char *hg_cpuset_format(const cpu_set_t *set, char *buf, size_t size)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int c = 0; c < CPU_SETSIZE && used < size; c++) {
		if (!CPU_ISSET(c, set))
			continue;
		int hi = c;
		while (hi + 1 < CPU_SETSIZE && CPU_ISSET(hi + 1, set))
			hi++;
		if (hi == c)
			used += (size_t)snprintf(buf + used, size - used, "%s%d", used ? "," : "", c);
		else
			used += (size_t)snprintf(buf + used, size - used, "%s%d-%d", used ? "," : "",
						 c, hi);
		c = hi;
	}
	return buf;
}

bool hg_cpuset_system_online(cpu_set_t *set)
{
	char line[1024] = "", err[HG_ERRLEN];
	FILE *f = fopen("/sys/devices/system/cpu/online", "r");
	if (f) {
		if (!fgets(line, sizeof(line), f))
			line[0] = '\0';
		fclose(f);
	}
	line[strcspn(line, "\n")] = '\0';
	return line[0] && hg_cpuset_parse(line, set, err) == 0;
}

void hg_cpuset_online(cpu_set_t *set)
{
	cpu_set_t online;
	if (sched_getaffinity(0, sizeof(*set), set) != 0)
		CPU_ZERO(set);
	if (hg_cpuset_system_online(&online)) {
		if (CPU_COUNT(set) == 0)
			*set = online;
		else
			CPU_AND(set, set, &online);
	}
}
