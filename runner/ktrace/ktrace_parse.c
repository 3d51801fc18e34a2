/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Decoding tracefs ring-buffer pages (the layout of events/header_page and
 * events/header_event) and the events hgrun enables (their format files).
 * See ktrace/ktrace_parse.h. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ktrace/ktrace_parse.h"

const struct hg_kevent_spec hg_kevent_specs[] = {
	{ "sched/sched_switch", HG_KEV_SWITCH, 0,
	  { "prev_pid", "next_pid", "prev_state", "prev_comm" }, false },
	{ "sched/sched_wakeup", HG_KEV_WAKEUP, 0, { "pid", "target_cpu", "comm", NULL }, false },
	{ "sched/sched_waking", HG_KEV_WAKING, 0, { "pid", "target_cpu", "comm", NULL }, true },
	{ "timer/hrtimer_start", HG_KEV_HRT_START, 0,
	  { "hrtimer", "softexpires", "expires", NULL }, true },
	{ "timer/hrtimer_expire_entry", HG_KEV_HRT_EXPIRE, 0, { "hrtimer", "now", NULL, NULL },
	  true },
	{ "timer/hrtimer_expire_exit", HG_KEV_HRT_EXPIRE_EXIT, 0, { "hrtimer", NULL, NULL, NULL },
	  true },
	{ "irq/irq_handler_entry", HG_KEV_IRQ_ENTRY, 0, { "irq", "name", NULL, NULL }, false },
	{ "irq/irq_handler_exit", HG_KEV_IRQ_EXIT, 0, { "irq", NULL, NULL, NULL }, false },
	{ "irq/softirq_entry", HG_KEV_SOFTIRQ_ENTRY, 0, { "vec", NULL, NULL, NULL }, false },
	{ "irq/softirq_exit", HG_KEV_SOFTIRQ_EXIT, 0, { "vec", NULL, NULL, NULL }, false },
#define VEC(name, sub) \
	{ "irq_vectors/" name "_entry", HG_KEV_VEC_ENTRY, sub, \
	  { "vector", NULL, NULL, NULL }, false }, \
	{ "irq_vectors/" name "_exit", HG_KEV_VEC_EXIT, sub, \
	  { "vector", NULL, NULL, NULL }, false }
	VEC("local_timer", HG_KVEC_LOCAL_TIMER),
	VEC("reschedule", HG_KVEC_RESCHEDULE),
	VEC("call_function", HG_KVEC_CALL_FUNCTION),
	VEC("call_function_single", HG_KVEC_CALL_FUNCTION_SINGLE),
	VEC("irq_work", HG_KVEC_IRQ_WORK),
#undef VEC
};
const size_t hg_n_kevent_specs = sizeof(hg_kevent_specs) / sizeof(hg_kevent_specs[0]);

/* "\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;": offset and
 * size of the field named `name` (the last word before ';', arrays too). */
static int find_field(const char *text, const char *name, int *off, int *size)
{
	size_t len = strlen(name);
	for (const char *p = strstr(text, "field:"); p; p = strstr(p + 1, "field:")) {
		const char *semi = strchr(p, ';');
		if (!semi)
			return -1;
		const char *end = semi;
		if (end[-1] == ']')    /* char prev_comm[16] (not __data_loc char[] name) */
			while (end > p && *end != '[')
				end--;
		if ((size_t)(end - p) < len || memcmp(end - len, name, len) != 0 ||
		    !strchr(" \t", end[-(long)len - 1]))
			continue;
		const char *o = strstr(semi, "offset:"), *s = strstr(semi, "size:");
		if (!o || !s)
			return -1;
		*off = atoi(o + 7);
		*size = atoi(s + 5);
		return 0;
	}
	return -1;
}

int hg_kformat_parse(const char *text, const struct hg_kevent_spec *spec, struct hg_kformat *f)
{
	memset(f, 0, sizeof(*f));
	const char *id = strstr(text, "\nID: ");
	if (!id && strncmp(text, "ID: ", 4) == 0)
		id = text - 1;
	if (!id)
		return -1;
	f->id = atoi(id + 5);
	f->kind = spec->kind;
	f->sub = spec->sub;
	for (int i = 0; i < 4; i++) {
		f->off[i] = f->size[i] = -1;
		if (spec->fields[i] && find_field(text, spec->fields[i], &f->off[i], &f->size[i]) < 0)
			return -1;
	}
	f->next_comm_off = -1;
	int size;
	if (find_field(text, "common_pid", &f->pid_off, &size) < 0 || size != 4)
		f->pid_off = -1;
	if (spec->kind == HG_KEV_SWITCH) {
		if (find_field(text, "next_comm", &f->next_comm_off, &size) < 0)
			return -1;
	}
	return 0;
}

void hg_knames_init(struct hg_knames *n)
{
	memset(n, 0, sizeof(*n));
	for (size_t i = 0; i < HG_KNAMES_TASKS; i++)
		n->task[i].pid = -1;
}

static size_t slot_of(const struct hg_knames *n, int32_t pid, bool *found)
{
	size_t h = ((uint32_t)pid * 2654435761u) % HG_KNAMES_TASKS;
	for (size_t k = 0; k < HG_KNAMES_TASKS; k++) {
		size_t i = (h + k) % HG_KNAMES_TASKS;
		if (n->task[i].pid == pid || n->task[i].pid == -1) {
			*found = n->task[i].pid == pid;
			return i;
		}
	}
	*found = false;
	return HG_KNAMES_TASKS;
}

void hg_knames_set_task(struct hg_knames *n, int32_t pid, const char *comm, size_t len)
{
	bool found;
	size_t i = slot_of(n, pid, &found);
	if (i == HG_KNAMES_TASKS) {
		n->tasks_not_kept++;
		return;
	}
	n->task[i].pid = pid;
	size_t l = strnlen(comm, len < 15 ? len : 15);
	memcpy(n->task[i].comm, comm, l);
	n->task[i].comm[l] = '\0';
}

void hg_knames_set_irq(struct hg_knames *n, int32_t irq, const char *name, size_t len)
{
	if (irq < 0 || irq >= HG_KNAMES_IRQS)
		return;
	size_t l = strnlen(name, len < 23 ? len : 23);
	memcpy(n->irq[irq], name, l);
	n->irq[irq][l] = '\0';
}

size_t hg_knames_full_irq_threads(struct hg_knames *n)
{
	size_t renamed = 0;
	for (size_t i = 0; i < HG_KNAMES_TASKS; i++) {
		char *comm = n->task[i].comm;
		int irq, at = 0;
		if (n->task[i].pid < 0 || sscanf(comm, "irq/%d-%n", &irq, &at) != 1 || !at)
			continue;
		const char *name = hg_knames_irq(n, irq), *rest = comm + at;
		bool secondary = strncmp(rest, "s-", 2) == 0;
		if (!name || !rest[0])
			continue;
		if (strncmp(name, rest, strlen(rest)) != 0) {
			if (!secondary || strncmp(name, rest + 2, strlen(rest + 2)) != 0)
				continue;
		} else {
			secondary = false;
		}
		if (strlen(name) <= strlen(secondary ? rest + 2 : rest))
			continue;   /* already whole */
		char whole[HG_KNAME_LEN];
		snprintf(whole, sizeof(whole), "irq/%d-%s%s", irq, secondary ? "s-" : "", name);
		snprintf(comm, HG_KNAME_LEN, "%s", whole);
		renamed++;
	}
	return renamed;
}

const char *hg_knames_task(const struct hg_knames *n, int32_t pid)
{
	bool found;
	size_t i = slot_of(n, pid, &found);
	return found ? n->task[i].comm : NULL;
}

const char *hg_knames_irq(const struct hg_knames *n, int32_t irq)
{
	if (irq < 0 || irq >= HG_KNAMES_IRQS || !n->irq[irq][0])
		return NULL;
	return n->irq[irq];
}

static int64_t read_int(const unsigned char *p, int size)
{
	switch (size) {
	case 1: return (int8_t)p[0];
	case 2: { int16_t v; memcpy(&v, p, 2); return v; }
	case 4: { int32_t v; memcpy(&v, p, 4); return v; }
	case 8: { int64_t v; memcpy(&v, p, 8); return v; }
	default: return 0;
	}
}

static bool fits(const struct hg_kformat *f, int i, size_t len)
{
	return f->off[i] < 0 || (size_t)f->off[i] + (size_t)f->size[i] <= len;
}

/* v as an int32, clamped; *clamped set when it did not fit. */
static int32_t clamp32(int64_t v, bool *clamped)
{
	if (v > INT32_MAX || v < INT32_MIN) {
		*clamped = true;
		return v > 0 ? INT32_MAX : INT32_MIN;
	}
	return (int32_t)v;
}

/* The hrtimer events: the timer's address (low 32 bits, enough to tell
 * one CPU's timers apart) in sub, times relative to the event's own. */
static int decode_timer(struct hg_kdecoder *d, const struct hg_kformat *f,
			const unsigned char *rec, struct hg_kevent *ev)
{
	bool clamped = false;
	ev->sub = (uint32_t)read_int(rec + f->off[0], f->size[0]);
	if (f->kind == HG_KEV_HRT_START) {
		int64_t soft = read_int(rec + f->off[1], f->size[1]);
		int64_t hard = read_int(rec + f->off[2], f->size[2]);
		ev->a = clamp32(soft - ev->ts, &clamped);
		ev->b = clamp32(hard - soft, &clamped);
	} else if (f->kind == HG_KEV_HRT_EXPIRE) {
		ev->a = clamp32(read_int(rec + f->off[1], f->size[1]) - ev->ts, &clamped);
	}
	if (clamped)
		ev->flags |= HG_KEV_CLAMPED;
	return d->emit(d->ctx, ev) == 0;
}

/* One record's payload; returns 1 when an event was emitted. */
static int decode_record(struct hg_kdecoder *d, const unsigned char *rec, size_t len,
			 int64_t ts, int cpu)
{
	if (len < 8)
		return d->malformed++, 0;
	uint16_t type;
	memcpy(&type, rec, 2);
	const struct hg_kformat *f = NULL;
	for (size_t i = 0; i < d->n_formats && !f; i++)
		if (d->formats[i].id == type)
			f = &d->formats[i];
	if (!f)
		return d->unknown++, 0;
	for (int i = 0; i < 4; i++)
		if (!fits(f, i, len))
			return d->malformed++, 0;
	struct hg_kevent ev = { .ts = ts, .cpu = (uint16_t)cpu, .kind = f->kind, .sub = f->sub };
	if (f->kind >= HG_KEV_HRT_START)
		return decode_timer(d, f, rec, &ev);
	ev.a = (int32_t)read_int(rec + f->off[0], f->size[0]);
	if (f->off[1] >= 0 && f->kind != HG_KEV_IRQ_ENTRY)
		ev.b = (int32_t)read_int(rec + f->off[1], f->size[1]);
	switch (f->kind) {
	case HG_KEV_SWITCH:
		if ((read_int(rec + f->off[2], f->size[2]) & 0xff) == 0)
			ev.flags |= HG_KEV_RUNNABLE;
		if (d->names && (size_t)f->next_comm_off + 16 <= len) {
			hg_knames_set_task(d->names, ev.a, (const char *)rec + f->off[3], 16);
			hg_knames_set_task(d->names, ev.b, (const char *)rec + f->next_comm_off, 16);
		}
		break;
	case HG_KEV_WAKEUP: case HG_KEV_WAKING:
		if (d->names)
			hg_knames_set_task(d->names, ev.a, (const char *)rec + f->off[2], 16);
		break;
	case HG_KEV_IRQ_ENTRY: {
		/* __data_loc: u32, offset in the low 16 bits, length in the high */
		uint32_t loc = (uint32_t)read_int(rec + f->off[1], 4);
		size_t o = loc & 0xffff, l = loc >> 16;
		if (d->names && o + l <= len)
			hg_knames_set_irq(d->names, ev.a, (const char *)rec + o, l);
		break;
	}
	default:
		break;
	}
	if (hg_kev_is_interrupt(f->kind) && f->pid_off >= 0 && (size_t)f->pid_off + 4 <= len) {
		ev.b = (int32_t)read_int(rec + f->pid_off, 4);
		ev.flags |= HG_KEV_PID;
	}
	return d->emit(d->ctx, &ev) == 0;
}

#define PAGE_HEADER 16
#define COMMIT_MASK 0x000fffffu           /* the flags live in the high bits */
#define MISSED_EVENTS (1ull << 31)
#define TYPE_PADDING 29
#define TYPE_TIME_EXTEND 30
#define TYPE_TIME_STAMP 31
#define TS_MSB_MASK (~((1ull << 59) - 1))

size_t hg_kpage_decode(struct hg_kdecoder *d, const unsigned char *page, size_t len, int cpu)
{
	if (len < PAGE_HEADER)
		return d->malformed++, 0;
	uint64_t ts, commit;
	memcpy(&ts, page, 8);
	memcpy(&commit, page + 8, 8);
	if (commit & MISSED_EVENTS)
		d->missed++;
	size_t size = (size_t)(commit & COMMIT_MASK);
	if (size > len - PAGE_HEADER)
		return d->malformed++, 0;
	const unsigned char *data = page + PAGE_HEADER;
	size_t off = 0, emitted = 0;
	while (off + 4 <= size) {
		uint32_t h, arg = 0;
		memcpy(&h, data + off, 4);
		off += 4;
		unsigned type_len = h & 31;
		uint64_t delta = h >> 5;
		if (type_len >= TYPE_PADDING || type_len == 0) {
			if (off + 4 > size)
				break;
			memcpy(&arg, data + off, 4);
		}
		switch (type_len) {
		case TYPE_PADDING:
			if (delta == 0 && arg == 0)
				return emitted;   /* the rest of the page is empty */
			ts += delta;
			off += arg;           /* a discarded event: its length */
			continue;
		case TYPE_TIME_EXTEND:
			ts += ((uint64_t)arg << 27) | delta;
			off += 4;
			continue;
		case TYPE_TIME_STAMP:
			ts = (ts & TS_MSB_MASK) | ((uint64_t)arg << 27) | delta;
			off += 4;
			continue;
		case 0:
			if (arg < 4 || off + arg > size)
				return d->malformed++, emitted;
			ts += delta;
			emitted += (size_t)decode_record(d, data + off + 4, arg - 4, (int64_t)ts, cpu);
			off += arg;
			continue;
		default: {
			size_t rlen = type_len * 4u;
			if (off + rlen > size)
				return d->malformed++, emitted;
			ts += delta;
			emitted += (size_t)decode_record(d, data + off, rlen, (int64_t)ts, cpu);
			off += rlen;
		}
		}
	}
	return emitted;
}
