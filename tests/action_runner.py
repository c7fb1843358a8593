#!/usr/bin/python3
"""Runs the steps of a composite GitHub Action (action.yml, given as JSON by
tests/yaml_json) the way a runner would, on this machine: each `run` step in
bash with its `env`, ${{ ... }} expressions for github.action_path, inputs
(defaults from action.yml, overridden on the command line) and earlier
steps' outputs (read from each step's $GITHUB_OUTPUT file).  actions/cache
is simulated: cache-hit is 'true' when its path exists already.  A step's
`if` may compare an input with a string ('' for empty).  Stops at the first
failing step, like a runner.

Usage: action_runner.py ACTION_JSON ACTION_PATH [NAME=VALUE...]
Prints the action's outputs as JSON on stdout ({"outputs": ..., "status": N,
"steps": ...}); what the steps print (the log) goes to stderr.
The environment (RUNNER_TEMP, RUNNER_TOOL_CACHE, ...) is passed through."""
import json
import os
import re
import subprocess
import sys
import tempfile

action = json.load(open(sys.argv[1], encoding="utf-8"))
action_path = sys.argv[2]
inputs = {name: (spec or {}).get("default") or "" for name, spec in action["inputs"].items()}
for assignment in sys.argv[3:]:
    name, value = assignment.split("=", 1)
    if name not in inputs:
        sys.exit("action_runner: no input named %s" % name)
    inputs[name] = value
steps = {}

EXPRESSION = re.compile(r"\$\{\{\s*([^}]*?)\s*\}\}")


def evaluate(text):
    def value(match):
        expression = match.group(1)
        if expression == "github.action_path":
            return action_path
        if expression.startswith("inputs."):
            return inputs[expression[len("inputs."):]]
        parts = expression.split(".")
        if len(parts) == 4 and parts[0] == "steps" and parts[2] == "outputs":
            return steps.get(parts[1], {}).get(parts[3], "")
        sys.exit("action_runner: unsupported expression %s" % expression)
    return EXPRESSION.sub(value, text or "")


def read_outputs(path):
    outputs = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if "=" in line:
                name, value = line.rstrip("\n").split("=", 1)
                outputs[name] = value
    return outputs


if action["runs"]["using"] != "composite":
    sys.exit("action_runner: not a composite action")
status = 0
CONDITION = re.compile(r"^\s*inputs\.([a-z-]+)\s*(==|!=)\s*'([^']*)'\s*$")


def condition_holds(text):
    """A step's `if`: only comparisons of an input with a string literal."""
    match = CONDITION.match(EXPRESSION.sub(lambda m: m.group(1), text))
    if not match:
        sys.exit("action_runner: unsupported condition %s" % text)
    name, operator, literal = match.groups()
    return (inputs[name] == literal) == (operator == "==")


for number, step in enumerate(action["runs"]["steps"]):
    step_id = step.get("id") or "step%d" % number
    if "if" in step and not condition_holds(step["if"]):
        print("action_runner: step %s skipped (%s)" % (step_id, step["if"]), file=sys.stderr)
        continue
    if "uses" in step:
        if not step["uses"].startswith("actions/cache@"):
            sys.exit("action_runner: cannot run %s" % step["uses"])
        path = evaluate(step["with"]["path"])
        key = evaluate(step["with"]["key"])
        if not path or not key:
            sys.exit("action_runner: actions/cache without a path or key")
        hit = os.path.isdir(path)
        print("action_runner: actions/cache %s -> %s (%s)" % (key, path, "hit" if hit else "miss"),
              file=sys.stderr)
        steps[step_id] = {"cache-hit": "true" if hit else ""}
        continue
    if step.get("shell") != "bash":
        sys.exit("action_runner: step %s: shell must be bash" % step_id)
    env = dict(os.environ)
    for name, value in (step.get("env") or {}).items():
        env[name] = evaluate(value)
    with tempfile.NamedTemporaryFile("r", prefix="github_output.") as output:
        env["GITHUB_OUTPUT"] = output.name
        env["GITHUB_ACTION_PATH"] = action_path
        # What GitHub runs for `shell: bash`.
        status = subprocess.call(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c",
                                  evaluate(step["run"])], env=env, stdout=sys.stderr)
        steps[step_id] = read_outputs(output.name)
    if status != 0:
        print("action_runner: step %s failed with exit status %d" % (step_id, status),
              file=sys.stderr)
        break
outputs = {name: evaluate(spec.get("value")) for name, spec in action.get("outputs", {}).items()}
json.dump({"outputs": outputs, "status": status, "steps": steps}, sys.stdout, indent=1)
print()
