"""Exports of a run's binary files for other tools (jsonl.py: trace.bin / latency.bin as JSON
lines; cyclictest.py: the latency histograms in cyclictest's -h layout). Imports base/, read/,
analyses/."""
