/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Writing man pages in roff (man(7) macros) for cli/manpage.c and
 * cli/manpage_scenario.c. */
#ifndef HG_ROFF_H
#define HG_ROFF_H

#include <stdio.h>

/* `text` with roff's special characters escaped (\ and -, a leading . or '). */
void hg_roff_text(FILE *out, const char *text);
/* .TH NAME SECTION with hgrun's version; .SH NAME line. */
void hg_roff_head(FILE *out, const char *name, int section, const char *title);
/* A tagged paragraph: .TP, `tag` in bold, then `text`. */
void hg_roff_item(FILE *out, const char *tag, const char *text);

#endif
