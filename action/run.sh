#!/usr/bin/env bash
# action/run.sh - the run step of the sandlint GitHub Action (action.yml):
# writes the SARIF report for code scanning, then prints the report in the
# chosen format (github: workflow annotations) to the log.  Kept here so
# that it runs, and is tested (tests/action.sh), outside GitHub too.
#
# Environment (the action's inputs):
#   SANDLINT            the sandlint to run (default: sandlint on PATH)
#   INPUT_PATHS         files and directories, separated by white space
#                       (default: .)
#   INPUT_FORMAT        the format printed to the log (default: github)
#   INPUT_EXTEND_SELECT rules added to the configured selection; passed as
#                       --extend-select only when not empty
#   INPUT_ARGS          more options, separated by white space (no quoting)
#   INPUT_SARIF_FILE    where the SARIF report goes (default: sandlint.sarif;
#                       empty: no SARIF run)
#   INPUT_FAIL_ON_FINDINGS  "false": findings do not fail the step (errors,
#                       exit status 2, still do)
#   INPUT_CONFIG        a configuration file, passed as --config when not
#                       empty (the base branch's, for pull requests)
#   INPUT_UNTRUSTED     "true": the checkout may be hostile: --untrusted
# Writes sarif-file= and exit-code= to $GITHUB_OUTPUT.  Exits with
# sandlint's status (0 for findings when INPUT_FAIL_ON_FINDINGS is false).
set -uo pipefail
sandlint=${SANDLINT:-sandlint}
format=${INPUT_FORMAT:-github}
sarif=${INPUT_SARIF_FILE-sandlint.sarif}
output=${GITHUB_OUTPUT:-/dev/null}

# Word splitting without pathname expansion: a path like '*' stays '*'.
set -f
# shellcheck disable=SC2206
paths=(${INPUT_PATHS:-.})
# shellcheck disable=SC2206
options=(${INPUT_ARGS:-})
set +f
[ ${#paths[@]} -gt 0 ] || paths=(.)
if [ -n "${INPUT_EXTEND_SELECT:-}" ]; then
    options+=(--extend-select "$INPUT_EXTEND_SELECT")
fi
if [ -n "${INPUT_CONFIG:-}" ]; then
    options+=(--config "$INPUT_CONFIG")
fi
case ${INPUT_UNTRUSTED:-false} in
    true) options+=(--untrusted) ;;
    false|'') ;;
    *) echo "sandlint action: untrusted must be true or false, not '$INPUT_UNTRUSTED'" >&2
       echo "exit-code=2" >> "$output"
       exit 2 ;;
esac

# The SARIF file's directory is made only where no link leads elsewhere:
# the checkout may have planted one (sandlint then refuses to write there).
make_directory() {
    local path=$1 walked=
    local -a parts
    IFS=/ read -r -a parts <<< "$path"
    [ "${path#/}" != "$path" ] && walked=/
    for part in "${parts[@]}"; do
        [ -n "$part" ] || continue
        walked=${walked:+${walked%/}/}$part
        [ -L "$walked" ] && return 0
    done
    mkdir -p -- "$path"
}

# run ARGS...: prints the command, runs it, returns its status.
run() {
    printf '+ %s\n' "$*" >&2
    "$@"
}

status=0
if [ -n "$sarif" ]; then
    make_directory "$(dirname "$sarif")"
    run "$sandlint" --format sarif --output "$sarif" --quiet "${options[@]}" -- "${paths[@]}"
    status=$?
    if [ "$status" -le 1 ] && [ -s "$sarif" ]; then
        echo "sarif-file=$sarif" >> "$output"
    else
        echo "sandlint action: no SARIF report (exit status $status)" >&2
    fi
fi
if [ "$status" -le 1 ]; then
    run "$sandlint" --format "$format" "${options[@]}" -- "${paths[@]}"
    report_status=$?
    [ "$report_status" -gt "$status" ] && status=$report_status
fi
echo "exit-code=$status" >> "$output"
if [ "$status" -eq 1 ] && [ "${INPUT_FAIL_ON_FINDINGS:-true}" = false ]; then
    echo "sandlint action: findings fail, but fail-on-findings is false" >&2
    exit 0
fi
exit "$status"
