#!/usr/bin/env python3
"""Prints the findings of a sandlint JSON report counted per rule, severity
and status, then the summary: the corpus pin of tests/corpus.sh."""
import collections
import json
import sys

with open(sys.argv[1], encoding="utf-8") as report_file:
    report = json.load(report_file)
counts = collections.Counter(
    (f["rule"], f["severity"], f["status"]) for f in report["findings"])
for (rule, severity, status), count in sorted(counts.items()):
    print(f"{rule} {severity} {status} {count}")
summary = report["summary"]
print(" ".join(f"{key}={summary[key]}" for key in sorted(summary)))
