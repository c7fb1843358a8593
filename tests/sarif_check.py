#!/usr/bin/python3
"""Validates SARIF files against the 2.1.0 schema and sandlint's promises:
every result has a location with startLine >= 1, every rule has help text,
every result has a partial fingerprint, rules and results carry the
security tag and a security-severity GitHub can rank, and no absolute path
of the scanning machine appears (artifacts are relative to %SRCROOT% and
never climb out of it; a file outside the root is named by its last
component under OUTSIDE_SRCROOT).
Usage: sarif_check.py SCHEMA FILE..."""
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
    def bad_score(holder):
        """Whether holder's properties lack a security-severity in 0.1-10.0
        or the "security" tag."""
        properties = holder.get("properties", {})
        try:
            score = float(properties.get("security-severity", ""))
        except ValueError:
            return True
        return not 0.0 < score <= 10.0 or "security" not in properties.get("tags", [])
    for rule in rules:
        if not rule.get("help", {}).get("text"):
            print(f"{path}: rule {rule['id']} has no help text")
            failures += 1
        if bad_score(rule):
            print(f"{path}: rule {rule['id']} lacks security-severity or tags")
            failures += 1
    base = run.get("originalUriBaseIds", {}).get("%SRCROOT%", {})
    if "uri" in base:
        print(f"{path}: %SRCROOT% names a place on the scanning machine")
        failures += 1
    for result in run["results"]:
        region = result["locations"][0]["physicalLocation"]["region"]
        if region.get("startLine", 0) < 1:
            print(f"{path}: result without startLine >= 1: {result['message']}")
            failures += 1
        if not result.get("partialFingerprints"):
            print(f"{path}: result without partialFingerprints")
            failures += 1
        if bad_score(result):
            print(f"{path}: result lacks security-severity or tags: {result['message']}")
            failures += 1
        artifact = result["locations"][0]["physicalLocation"]["artifactLocation"]
        # A file outside the root is named by its last component alone.
        outside = artifact.get("uriBaseId") == "OUTSIDE_SRCROOT" and "/" not in artifact["uri"]
        if (artifact.get("uriBaseId") != "%SRCROOT%" and not outside) or \
                artifact["uri"].startswith(("/", "file:", "../")) or artifact["uri"] == "..":
            print(f"{path}: result not relative to %SRCROOT%: {artifact}")
            failures += 1
        if rules[result["ruleIndex"]]["id"] != result["ruleId"]:
            print(f"{path}: ruleIndex does not match ruleId {result['ruleId']}")
            failures += 1
sys.exit(1 if failures else 0)
