# SPDX-License-Identifier: GPL-2.0-or-later
"""Reading the inputs: a run directory (result.json checked, trace.bin / latency.bin as columns
or raw records, series.jsonl), a sweep directory, and the runs named on a command line grouped
and labelled. Imports only base/."""
