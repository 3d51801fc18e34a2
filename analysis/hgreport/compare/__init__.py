# SPDX-License-Identifier: GPL-2.0-or-later
"""`hgreport compare`: the key figures of runs or groups side by side, their differences with a
confidence interval or a rank test, the page, the overlaid figures and the --fail-if gates.
Imports every layer below (base/ to figures/, perfetto/, export/)."""
