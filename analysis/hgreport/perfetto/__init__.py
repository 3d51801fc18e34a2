# SPDX-License-Identifier: GPL-2.0-or-later
"""The run as a Perfetto trace: trace.py writes it, tracks.py says what is on it, proto.py
encodes the wire format; chrome_json.py is the former JSON export. Imports base/, read/,
analyses/."""

FILE_NAME = "trace.perfetto-trace"     # its name in the report's directory
