/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libyaml's syntax errors in the user's terms: the likely cause (a tab, a
 * line indented one space too far or too few, an unclosed bracket or
 * quote) at the line where it is, libyaml's own words kept in brackets. */
#ifndef HG_YAMLERRORS_H
#define HG_YAMLERRORS_H

#include <stdbool.h>
#include <stddef.h>
#include <yaml.h>

#define HG_YAML_WHY_LEN 480

/* When the error of parser p over text is one of the known causes: true,
 * the explanation in why, its 1-based line and column. */
bool hg_yaml_explain(const yaml_parser_t *p, const char *text, size_t len,
		     char why[HG_YAML_WHY_LEN], unsigned *line, unsigned *column);

#endif
