"""Exports of a run's binary files for other tools (jsonl.py: trace.bin / latency.bin as JSON
lines). Imports base/, read/, analyses/."""
