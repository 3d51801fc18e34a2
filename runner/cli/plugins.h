/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Every plugin compiled into hgrun, as the table the loader is given
 * (plan/plugins.h): cli/ is the one place that names the plugin folders'
 * registries, so scenario/ links none of them. */
#ifndef HG_CLI_PLUGINS_H
#define HG_CLI_PLUGINS_H

#include "plan/plugins.h"

extern const struct hg_plugins hg_builtin_plugins;

#endif
