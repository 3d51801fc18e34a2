# SPDX-License-Identifier: GPL-2.0-or-later
"""The pages of the commands other than report and compare: table 1 and table 2, the
response-time analysis, the sweep and the cache penalty (Markdown, CSV, JSON, a figure).
Imports every layer below (base/ to figures/, perfetto/, export/)."""
