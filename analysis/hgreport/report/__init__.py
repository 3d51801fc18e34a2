"""The report of one run (report.md, summary.json, the figures, the Perfetto trace): assemble.py
writes it from its sections. Imports every layer below (base/ to figures/, perfetto/, export/)."""
