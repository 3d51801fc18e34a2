/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Decoding kernel events (runner/ktrace/ktrace_parse.c): the format files of
 * each event kind, as this kernel (6.18) writes them, and ring-buffer pages
 * built byte by byte: small and long records, time extends, absolute time
 * stamps, padding, the missed-events flag, names of tasks and irqs, the
 * task an interrupt interrupted (common_pid), the hrtimer events (the timer's
 * address, expiries relative to the event, clamped when they do not fit). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "ktrace/ktrace_parse.h"

#define COMMON \
	"format:\n" \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

static const char switch_fmt[] = "name: sched_switch\nID: 372\n" COMMON
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
	"\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
	"\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n\nprint fmt: \"...\"\n";
static const char wakeup_fmt[] = "name: sched_wakeup\nID: 374\n" COMMON
	"\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:int target_cpu;\toffset:32;\tsize:4;\tsigned:1;\n";
static const char irq_entry_fmt[] = "name: irq_handler_entry\nID: 225\n" COMMON
	"\tfield:int irq;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:__data_loc char[] name;\toffset:12;\tsize:4;\tsigned:0;\n";
static const char irq_exit_fmt[] = "name: irq_handler_exit\nID: 224\n" COMMON
	"\tfield:int irq;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:int ret;\toffset:12;\tsize:4;\tsigned:1;\n";
static const char softirq_entry_fmt[] = "name: softirq_entry\nID: 223\n" COMMON
	"\tfield:unsigned int vec;\toffset:8;\tsize:4;\tsigned:0;\n";
static const char softirq_exit_fmt[] = "name: softirq_exit\nID: 222\n" COMMON
	"\tfield:unsigned int vec;\toffset:8;\tsize:4;\tsigned:0;\n";
static const char timer_entry_fmt[] = "name: local_timer_entry\nID: 165\n" COMMON
	"\tfield:int vector;\toffset:8;\tsize:4;\tsigned:1;\n";
static const char resched_exit_fmt[] = "name: reschedule_exit\nID: 154\n" COMMON
	"\tfield:int vector;\toffset:8;\tsize:4;\tsigned:1;\n";

static const char hrt_start_fmt[] = "name: hrtimer_start\nID: 460\n" COMMON
	"\tfield:void * hrtimer;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:void * function;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:s64 expires;\toffset:24;\tsize:8;\tsigned:1;\n"
	"\tfield:s64 softexpires;\toffset:32;\tsize:8;\tsigned:1;\n"
	"\tfield:enum hrtimer_mode mode;\toffset:40;\tsize:4;\tsigned:0;\n"
	"\tfield:bool was_armed;\toffset:44;\tsize:1;\tsigned:0;\n";
static const char hrt_expire_fmt[] = "name: hrtimer_expire_entry\nID: 459\n" COMMON
	"\tfield:void * hrtimer;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:s64 now;\toffset:16;\tsize:8;\tsigned:1;\n"
	"\tfield:void * function;\toffset:24;\tsize:8;\tsigned:0;\n";

static const struct hg_kevent_spec *spec(const char *path)
{
	for (size_t i = 0; i < hg_n_kevent_specs; i++)
		if (strcmp(hg_kevent_specs[i].path, path) == 0)
			return &hg_kevent_specs[i];
	return NULL;
}

static struct hg_kformat formats[8];

static void test_formats(void)
{
	static const struct { const char *path, *text; int id, off0, off1; } cases[] = {
		{ "sched/sched_switch", switch_fmt, 372, 24, 56 },
		{ "sched/sched_wakeup", wakeup_fmt, 374, 24, 32 },
		{ "irq/irq_handler_entry", irq_entry_fmt, 225, 8, 12 },
		{ "irq/irq_handler_exit", irq_exit_fmt, 224, 8, -1 },
		{ "irq/softirq_entry", softirq_entry_fmt, 223, 8, -1 },
		{ "irq/softirq_exit", softirq_exit_fmt, 222, 8, -1 },
		{ "irq_vectors/local_timer_entry", timer_entry_fmt, 165, 8, -1 },
		{ "irq_vectors/reschedule_exit", resched_exit_fmt, 154, 8, -1 },
	};
	for (size_t i = 0; i < 8; i++) {
		const struct hg_kevent_spec *s = spec(cases[i].path);
		CHECK(s != NULL, "%s is in the table", cases[i].path);
		if (!s)
			continue;
		int rc = hg_kformat_parse(cases[i].text, s, &formats[i]);
		CHECK(rc == 0, "%s parses", cases[i].path);
		CHECK(formats[i].id == cases[i].id, "%s id %d", cases[i].path, formats[i].id);
		CHECK(formats[i].off[0] == cases[i].off0, "%s off0 %d", cases[i].path,
		      formats[i].off[0]);
		CHECK(formats[i].off[1] == cases[i].off1, "%s off1 %d", cases[i].path,
		      formats[i].off[1]);
	}
	CHECK(formats[0].off[2] == 32 && formats[0].size[2] == 8, "prev_state 8 bytes at 32");
	CHECK(formats[0].off[3] == 8 && formats[0].next_comm_off == 40, "comms at 8 and 40");
	CHECK(formats[2].size[1] == 4, "__data_loc name is a u32");
	struct hg_kformat f;
	CHECK(hg_kformat_parse("name: x\nformat:\n", spec("sched/sched_switch"), &f) < 0,
	      "no ID: refused");
	CHECK(hg_kformat_parse(softirq_entry_fmt, spec("sched/sched_switch"), &f) < 0,
	      "missing fields: refused");
}

/* ---- pages -------------------------------------------------------------- */

struct page {
	unsigned char b[4096];
	size_t len;        /* bytes of data after the 16-byte header */
};

static void put32(struct page *p, uint32_t v) { memcpy(p->b + 16 + p->len, &v, 4); p->len += 4; }

static void header(struct page *p, uint64_t ts)
{
	memset(p, 0, sizeof(*p));
	memcpy(p->b, &ts, 8);
}

static void finish(struct page *p, uint64_t flags)
{
	uint64_t commit = p->len | flags;
	memcpy(p->b + 8, &commit, 8);
}

/* A record of `len` payload bytes (multiple of 4) with a time delta. */
static void record(struct page *p, uint32_t delta, const unsigned char *payload, size_t len,
		   bool long_form)
{
	if (long_form) {
		put32(p, delta << 5);
		put32(p, (uint32_t)len + 4);
	} else {
		put32(p, (delta << 5) | (uint32_t)(len / 4));
	}
	memcpy(p->b + 16 + p->len, payload, len);
	p->len += len;
}

static void payload_switch(unsigned char *r, int prev, const char *pc, long state, int next,
			   const char *nc)
{
	memset(r, 0, 64);
	uint16_t type = 372;
	memcpy(r, &type, 2);
	strncpy((char *)r + 8, pc, 16);
	memcpy(r + 24, &prev, 4);
	memcpy(r + 32, &state, 8);
	strncpy((char *)r + 40, nc, 16);
	memcpy(r + 56, &next, 4);
}

static void payload_irq(unsigned char *r, int irq, const char *name)
{
	memset(r, 0, 32);
	uint16_t type = 225;
	memcpy(r, &type, 2);
	memcpy(r + 8, &irq, 4);
	uint32_t loc = 16u | ((uint32_t)strlen(name) + 1) << 16;
	memcpy(r + 12, &loc, 4);
	memcpy(r + 16, name, strlen(name) + 1);
}

static void payload_int(unsigned char *r, uint16_t type, int v)
{
	memset(r, 0, 12);
	memcpy(r, &type, 2);
	memcpy(r + 8, &v, 4);
}

static struct hg_kevent got[16];
static size_t n_got;

static int collect(void *ctx, const struct hg_kevent *ev)
{
	(void)ctx;
	if (n_got < 16)
		got[n_got++] = *ev;
	return 0;
}

static void test_page(void)
{
	struct page p;
	unsigned char r[64];
	header(&p, 1000000);
	payload_switch(r, 10, "hog", 0, 20, "kworker/0:1");
	record(&p, 5, r, 64, true);                       /* ts 1000005 */
	payload_irq(r, 11, "virtio0");
	int32_t interrupted = 4242;                       /* common_pid */
	memcpy(r + 4, &interrupted, 4);
	record(&p, 10, r, 32, false);                     /* 1000015 */
	put32(&p, (3u << 5) | 30);                        /* time extend: 1 << 27 + 3 */
	put32(&p, 1);
	payload_int(r, 223, 3);                           /* softirq NET_RX */
	record(&p, 0, r, 12, false);                      /* 1000015 + 2^27 + 3 */
	put32(&p, (2u << 5) | 29);                        /* discarded event, 8 bytes */
	put32(&p, 8);
	p.len += 4;
	payload_int(r, 165, 236);                         /* local timer */
	record(&p, 7, r, 12, false);                      /* + 2 + 7 */
	payload_int(r, 999, 1);                           /* an event not asked for */
	record(&p, 1, r, 12, false);
	payload_switch(r, 20, "kworker/0:1", 1, 10, "hog");    /* S: voluntary */
	record(&p, 1, r, 64, true);
	finish(&p, 0);

	struct hg_knames *names = malloc(sizeof(*names));
	hg_knames_init(names);
	struct hg_kdecoder d = { formats, 8, names, collect, NULL, 0, 0, 0 };
	n_got = 0;
	size_t n = hg_kpage_decode(&d, p.b, sizeof(p.b), 1);
	CHECK(n == 5 && n_got == 5, "5 events (got %zu)", n);
	CHECK(d.unknown == 1 && d.malformed == 0 && d.missed == 0, "unknown %llu malformed %llu",
	      (unsigned long long)d.unknown, (unsigned long long)d.malformed);
	int64_t ext = 1000015 + (1ll << 27) + 3;
	CHECK(got[0].kind == HG_KEV_SWITCH && got[0].ts == 1000005 && got[0].a == 10 &&
	      got[0].b == 20 && (got[0].flags & HG_KEV_RUNNABLE) && got[0].cpu == 1,
	      "switch: ts %lld a %d b %d", (long long)got[0].ts, got[0].a, got[0].b);
	CHECK(got[1].kind == HG_KEV_IRQ_ENTRY && got[1].ts == 1000015 && got[1].a == 11,
	      "irq entry ts %lld", (long long)got[1].ts);
	CHECK(got[1].b == 4242 && (got[1].flags & HG_KEV_PID) && !(got[0].flags & HG_KEV_PID),
	      "an interrupt names the task it interrupted (b %d)", got[1].b);
	CHECK((got[3].flags & HG_KEV_PID) && got[3].b == 0, "the timer interrupted pid 0");
	CHECK(got[2].kind == HG_KEV_SOFTIRQ_ENTRY && got[2].ts == ext && got[2].a == 3,
	      "softirq after a time extend: ts %lld", (long long)got[2].ts);
	CHECK(got[3].kind == HG_KEV_VEC_ENTRY && got[3].sub == HG_KVEC_LOCAL_TIMER &&
	      got[3].a == 236 && got[3].ts == ext + 2 + 7, "timer after padding: ts %lld",
	      (long long)got[3].ts);
	CHECK(got[4].kind == HG_KEV_SWITCH && !(got[4].flags & HG_KEV_RUNNABLE),
	      "S is not runnable");
	const char *n10 = hg_knames_task(names, 10), *n20 = hg_knames_task(names, 20);
	CHECK(n10 && strcmp(n10, "hog") == 0, "pid 10 is hog (%s)", n10 ? n10 : "NULL");
	CHECK(n20 && strcmp(n20, "kworker/0:1") == 0, "pid 20 name");
	const char *irq = hg_knames_irq(names, 11);
	CHECK(irq && strcmp(irq, "virtio0") == 0, "irq 11 is virtio0 (%s)", irq ? irq : "NULL");
	CHECK(hg_knames_task(names, 30) == NULL, "unknown pid");

	/* absolute time stamp, missed events, a truncated record */
	header(&p, 5000);
	put32(&p, (7u << 5) | 31);
	put32(&p, 2);                                     /* ts = 2 << 27 | 7 */
	payload_int(r, 222, 9);
	record(&p, 4, r, 12, false);
	put32(&p, (1u << 5) | 16);                        /* claims 64 bytes, page ends */
	finish(&p, 1ull << 31);
	n_got = 0;
	d.unknown = d.malformed = 0;
	n = hg_kpage_decode(&d, p.b, 16 + p.len, 0);
	CHECK(n == 1 && got[0].kind == HG_KEV_SOFTIRQ_EXIT && got[0].a == 9 &&
	      got[0].ts == (2ll << 27 | 7) + 4, "absolute stamp: ts %lld", (long long)got[0].ts);
	CHECK(d.missed == 1 && d.malformed == 1, "missed %llu malformed %llu",
	      (unsigned long long)d.missed, (unsigned long long)d.malformed);
	free(names);
}

static void payload_hrt(unsigned char *r, uint16_t type, uint64_t timer, int64_t v1,
		       int64_t v2)
{
	memset(r, 0, 48);
	memcpy(r, &type, 2);
	memcpy(r + 8, &timer, 8);
	if (type == 460) {              /* expires at 24, softexpires at 32 */
		memcpy(r + 24, &v2, 8);
		memcpy(r + 32, &v1, 8);
	} else {                        /* now at 16 */
		memcpy(r + 16, &v1, 8);
	}
}

static void test_timers(void)
{
	struct hg_kformat f[2];
	CHECK(hg_kformat_parse(hrt_start_fmt, spec("timer/hrtimer_start"), &f[0]) == 0 &&
	      f[0].off[0] == 8 && f[0].off[1] == 32 && f[0].off[2] == 24,
	      "hrtimer_start: softexpires (32) is not taken for expires (24)");
	CHECK(hg_kformat_parse(hrt_expire_fmt, spec("timer/hrtimer_expire_entry"), &f[1]) == 0 &&
	      f[1].off[1] == 16, "hrtimer_expire_entry: now at 16");
	CHECK(spec("sched/sched_waking") != NULL, "sched_waking is traced");
	struct page p;
	unsigned char r[48];
	uint64_t timer = 0xffff888812345678ull;
	header(&p, 1000000);
	payload_hrt(r, 460, timer, 1000000 + 500, 1000000 + 500 + 50000);
	record(&p, 0, r, 48, true);
	payload_hrt(r, 459, timer, 1000000 + 510, 0);
	record(&p, 10, r, 32, true);
	payload_hrt(r, 460, timer, 1000000 + 5000000000ll, 1000000 + 5000000000ll);
	record(&p, 0, r, 48, true);
	finish(&p, 0);
	struct hg_kdecoder d = { f, 2, NULL, collect, NULL, 0, 0, 0 };
	n_got = 0;
	size_t n = hg_kpage_decode(&d, p.b, sizeof(p.b), 0);
	CHECK(n == 3 && d.malformed == 0, "3 timer events (got %zu)", n);
	CHECK(got[0].kind == HG_KEV_HRT_START && got[0].sub == 0x12345678u && got[0].a == 500 &&
	      got[0].b == 50000 && !(got[0].flags & (HG_KEV_CLAMPED | HG_KEV_PID)),
	      "start: soft - ts %d, slack %d", got[0].a, got[0].b);
	CHECK(got[1].kind == HG_KEV_HRT_EXPIRE && got[1].sub == 0x12345678u && got[1].a == 500,
	      "expire: now - ts %d", got[1].a);
	CHECK(got[2].a == INT32_MAX && (got[2].flags & HG_KEV_CLAMPED), "5 s away: clamped");
	CHECK(!hg_kev_is_interrupt(HG_KEV_HRT_START) && hg_kev_is_interrupt(HG_KEV_VEC_EXIT),
	      "timer events do not name an interrupted task");
}

/* Threaded handlers named whole from their irq's name (a kernel comm is 15
 * characters): primary and secondary threads, a name already whole, one
 * that does not match its irq, an irq without a name, other tasks. */
static void test_irq_threads(void)
{
	struct hg_knames *n = malloc(sizeof(*n));
	hg_knames_init(n);
	const char *irq28 = "virtio1-requests", *irq9 = "acpi";
	hg_knames_set_irq(n, 28, irq28, strlen(irq28));
	hg_knames_set_irq(n, 9, irq9, strlen(irq9));
	hg_knames_set_irq(n, 40, "ahci[0000:00:1f.2]", 18);
	static const struct { int pid; const char *comm, *want; } t[] = {
		{ 100, "irq/28-virtio1-", "irq/28-virtio1-requests" },
		{ 101, "irq/9-acpi", "irq/9-acpi" },
		{ 102, "irq/40-s-ahci[0", "irq/40-s-ahci[0000:00:1f.2]" },
		{ 103, "irq/28-other", "irq/28-other" },
		{ 104, "irq/77-eth0-TxR", "irq/77-eth0-TxR" },
		{ 105, "ktimers/0", "ktimers/0" },
		{ 106, "irq/40-", "irq/40-" },
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		hg_knames_set_task(n, t[i].pid, t[i].comm, strlen(t[i].comm));
	size_t renamed = hg_knames_full_irq_threads(n);
	CHECK(renamed == 2, "two renamed (%zu)", renamed);
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		const char *name = hg_knames_task(n, t[i].pid);
		CHECK(name && strcmp(name, t[i].want) == 0, "%s: %s, want %s", t[i].comm,
		      name ? name : "NULL", t[i].want);
	}
	CHECK(hg_knames_full_irq_threads(n) == 0, "idempotent");
	free(n);
}

int main(void)
{
	test_formats();
	test_irq_threads();
	test_page();
	test_timers();
	return unit_report("test_ktrace_parse");
}
