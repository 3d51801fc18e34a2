/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The counter's rate kept for the boot (runner/run/calcache.c): read back
 * as written, and refused for another counter, another boot, a damaged
 * line, a file or directory others may write, a link at its name, or when
 * the cache is off. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unit.h"
#include "run/calcache.h"

static char dir[PATH_MAX], file[PATH_MAX + 16];

static const struct hg_calcache sample = {
	.hz = 2596149825.803256, .hz_error_ppm = 0.531, .samples = 16,
	.span_ns = 83687677, .bracket_ns = 44.441,
};

static void write_text(const char *text)
{
	unlink(file);
	FILE *f = fopen(file, "w");
	fputs(text, f);
	fclose(f);
	chmod(file, 0644);
}

static void test_round_trip(void)
{
	struct hg_calcache c;
	CHECK(hg_calcache_read("rdtsc", &c) == -ENOENT, "no file yet");
	int rc = hg_calcache_write("rdtsc", &sample);
	CHECK(rc == 0, "write: %d", rc);
	rc = hg_calcache_read("rdtsc", &c);
	CHECK(rc == 0, "read: %d", rc);
	CHECK(c.hz == sample.hz && c.samples == 16 && c.hz_error_ppm == 0.531 &&
	      c.span_ns == sample.span_ns && c.bracket_ns == sample.bracket_ns,
	      "read back %.6f %g %u %g %g", c.hz, c.hz_error_ppm, c.samples, c.span_ns, c.bracket_ns);
	CHECK(hg_calcache_read("cntvct_el0", &c) == -ESTALE, "another counter");
}

static void test_refused(void)
{
	struct hg_calcache c;
	char line[256], boot[64] = "";
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
	if (f) {
		if (!fgets(boot, sizeof(boot), f))
			boot[0] = '\0';
		fclose(f);
		boot[strcspn(boot, "\n")] = '\0';
	}
	write_text("hgrun-calibration 1 00000000-0000-0000-0000-000000000000 rdtsc 1e9 1 16 8e7 40\n");
	CHECK(hg_calcache_read("rdtsc", &c) == -ESTALE, "another boot");
	snprintf(line, sizeof(line), "hgrun-calibration 2 %s rdtsc 1e9 1 16 8e7 40\n", boot);
	write_text(line);
	CHECK(hg_calcache_read("rdtsc", &c) == -ESTALE, "another format");
	snprintf(line, sizeof(line), "hgrun-calibration 1 %s rdtsc -5 1 16 8e7 40\n", boot);
	write_text(line);
	CHECK(hg_calcache_read("rdtsc", &c) == -ESTALE, "a negative rate");
	write_text("garbage");
	CHECK(hg_calcache_read("rdtsc", &c) == -ESTALE, "garbage");
	snprintf(line, sizeof(line), "hgrun-calibration 1 %s rdtsc 1e9 1 16 8e7 40\n", boot);
	write_text(line);
	CHECK(hg_calcache_read("rdtsc", &c) == 0 && c.hz == 1e9, "this boot's line");
	chmod(file, 0666);
	CHECK(hg_calcache_read("rdtsc", &c) == -EPERM, "a file others may write");
	chmod(file, 0644);
	chmod(dir, 0777);
	CHECK(hg_calcache_read("rdtsc", &c) == -EPERM, "a directory others may write");
	CHECK(hg_calcache_write("rdtsc", &sample) == -EPERM, "no writing there either");
	chmod(dir, 0755);
	unlink(file);
	CHECK(symlink("/etc/passwd", file) == 0, "symlink");
	CHECK(hg_calcache_read("rdtsc", &c) == -ELOOP, "a link at the name");
	CHECK(hg_calcache_write("rdtsc", &sample) == 0, "the link replaced");
	struct stat st;
	CHECK(lstat(file, &st) == 0 && S_ISREG(st.st_mode), "a file now");
	CHECK(hg_calcache_read("rdtsc", &c) == 0, "read");
}

static void test_off(void)
{
	struct hg_calcache c;
	unlink(file);
	setenv("HGRUN_CALIBRATION_CACHE", "off", 1);
	CHECK(hg_calcache_write("rdtsc", &sample) == -ENOENT, "off: not written");
	CHECK(access(file, F_OK) != 0, "no file");
	CHECK(hg_calcache_read("rdtsc", &c) == -ENOENT, "off: not read");
	setenv("HGRUN_CALIBRATION_CACHE", dir, 1);
}

int main(void)
{
	snprintf(dir, sizeof(dir), "/tmp/hg_calcache_XXXXXX");
	if (!mkdtemp(dir))
		return 1;
	chmod(dir, 0755);
	snprintf(file, sizeof(file), "%s/calibration", dir);
	setenv("HGRUN_CALIBRATION_CACHE", dir, 1);
	test_round_trip();
	test_refused();
	test_off();
	unlink(file);
	rmdir(dir);
	return unit_report("test_calcache");
}
