#!/bin/sh
# bash completion: options, formats, rule codes from --list-rules.
. "${abs_top_srcdir:?}/tests/lib.sh"
if ! command -v bash >/dev/null 2>&1; then
    echo "completion.sh: SKIP: bash is missing"
    exit 77
fi
make_scratch
complete_words() {
    # complete_words WORD... : prints COMPREPLY for the last word.
    bash -c '
        . "$1"; shift
        COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
        _sandlint
        printf "%s\n" "${COMPREPLY[@]}"
    ' sh "$abs_top_srcdir/completion/sandlint" "$SANDLINT" "$@"
}
complete_words --form > "$out"
contains "$out" "--format" "options from --help"
complete_words --format "" > "$out"
[ "$(tr '\n' ' ' < "$out")" = "text json sarif github " ] && pass "formats" || fail "formats: $(cat "$out")"
complete_words --select SBX00 > "$out"
contains "$out" "SBX001" "rule codes from --list-rules"
contains "$out" "SBX006" "every built-in rule"
complete_words --ignore SBX001,SBX00 > "$out"
contains "$out" "SBX001,SBX003" "later items of a selector list"
complete_words --select sandbox > "$out"
contains "$out" "sandbox_privileges" "groups"
complete_words --color a > "$out"
contains "$out" "always" "colour modes"
finish
