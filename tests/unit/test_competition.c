/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Parsing /proc/stat and /proc/interrupts (runner/ktrace/competition.c), from
 * samples of this guest: per-CPU steal, irq and softirq ticks; interrupts
 * summed per CPU column, machine-wide rows (ERR, MIS) left out. */
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "unit.h"
#include "ktrace/competition.h"

static const char stat_text[] =
	"cpu  86496 1494 30936 199386 1476 0 3123 1954 0 0\n"
	"cpu0 46668 501 17500 94038 416 7 2271 1049 0 0\n"
	"cpu1 39827 993 13436 105348 1059 0 851 904 0 0\n"
	"intr 1234 0 0\n"
	"ctxt 99\n";

static const char interrupts_text[] =
	"           CPU0       CPU1       \n"
	" 24:          1          0  IO-APIC   5-edge      ACPI:Ged\n"
	" 25:         10         20  PCI-MSI 49152-edge      virtio0-config\n"
	"LOC:    1423414     564472   Local timer interrupts\n"
	"RES:      99696      35910   Rescheduling interrupts\n"
	"ERR:          5\n"
	"MIS:          0\n";

static uint64_t steal[CPU_SETSIZE], irq[CPU_SETSIZE], softirq[CPU_SETSIZE], intr[CPU_SETSIZE];

int main(void)
{
	FILE *f = fmemopen((void *)stat_text, sizeof(stat_text) - 1, "r");
	hg_proc_stat_parse(f, steal, irq, softirq);
	fclose(f);
	CHECK(steal[0] == 1049 && steal[1] == 904, "steal %llu %llu",
	      (unsigned long long)steal[0], (unsigned long long)steal[1]);
	CHECK(irq[0] == 7 && irq[1] == 0 && softirq[0] == 2271 && softirq[1] == 851,
	      "irq/softirq per CPU");
	CHECK(steal[2] == 0, "no CPU 2");

	f = fmemopen((void *)interrupts_text, sizeof(interrupts_text) - 1, "r");
	hg_proc_interrupts_parse(f, intr);
	fclose(f);
	CHECK(intr[0] == 1 + 10 + 1423414 + 99696, "CPU0 interrupts %llu",
	      (unsigned long long)intr[0]);
	CHECK(intr[1] == 0 + 20 + 564472 + 35910, "CPU1 interrupts %llu (ERR, MIS not counted)",
	      (unsigned long long)intr[1]);
	return unit_report("test_competition");
}
