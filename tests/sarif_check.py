#!/usr/bin/python3
"""Validates SARIF files against the 2.1.0 schema and sandlint's promises:
every result has a location with startLine >= 1, every rule has help text,
every result has a partial fingerprint.  Usage: sarif_check.py SCHEMA FILE..."""
import json
import sys

import jsonschema

schema = json.load(open(sys.argv[1], encoding="utf-8"))
validator = jsonschema.Draft7Validator(schema)
failures = 0
for path in sys.argv[2:]:
    document = json.load(open(path, encoding="utf-8"))
    errors = sorted(validator.iter_errors(document), key=lambda e: list(e.path))
    for error in errors[:5]:
        print(f"{path}: schema: {'/'.join(map(str, error.path))}: {error.message}")
    failures += len(errors)
    run = document["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    for rule in rules:
        if not rule.get("help", {}).get("text"):
            print(f"{path}: rule {rule['id']} has no help text")
            failures += 1
    for result in run["results"]:
        region = result["locations"][0]["physicalLocation"]["region"]
        if region.get("startLine", 0) < 1:
            print(f"{path}: result without startLine >= 1: {result['message']}")
            failures += 1
        if not result.get("partialFingerprints"):
            print(f"{path}: result without partialFingerprints")
            failures += 1
        if rules[result["ruleIndex"]]["id"] != result["ruleId"]:
            print(f"{path}: ruleIndex does not match ruleId {result['ruleId']}")
            failures += 1
sys.exit(1 if failures else 0)
