#!/bin/sh
# Shell completion (completion/): bash, zsh and fish complete options,
# formats, colour and confinement modes, rule selectors from --list-rules
# (also the last item of a comma list) and files; they never load plugins
# that the current directory's configuration names; and every long option
# of --help and every format is known to the zsh and fish completions (a
# new option must be added there).  zsh and fish are optional: each is
# skipped with a reason when it is not installed.
. "${abs_top_srcdir:?}/tests/lib.sh"
make_scratch
completion="$abs_top_srcdir/completion"
# The completions run the `sandlint` the user typed: put the built one on
# PATH under that name.
mkdir "$scratch/bin"
ln -s "$SANDLINT" "$scratch/bin/sandlint"
PATH="$scratch/bin:$PATH"
export PATH

# A repository whose configuration names a plugin that cannot load: a
# completion that ran sandlint with this configuration would get no rules
# (and with a real plugin, would run the repository's code).
mkdir "$scratch/repo" "$scratch/repo/examples"
printf '[sandlint]\nplugins = ./evil.so\n' > "$scratch/repo/.sandlint.ini"
cd "$scratch/repo"

# --- drift: --help against the zsh and fish completions ----------------------
sl --help > "$scratch/help"
options=$(grep -o -- '--[a-z][a-z-]*' "$scratch/help" | sort -u)
formats=$(sed -n 's/.*--format FMT *//p' "$scratch/help" | tr -c 'a-z\n' ' ' |
          tr ' ' '\n' | grep -v -e '^$' -e '^default$' -e '^or$')
[ -n "$options" ] && [ -n "$formats" ] || fail "cannot read options and formats from --help"
for option in $options; do
    grep -qE -- "['){,*]${option}[]=+},[]" "$completion/_sandlint" || \
        fail "zsh completion lacks $option"
    grep -q -- "-l ${option#--}\( \|$\)" "$completion/sandlint.fish" || \
        fail "fish completion lacks $option"
done
for format in $formats; do
    for file in sandlint _sandlint sandlint.fish; do
        grep -q -- "[ '(]${format}[ ')]" "$completion/$file" || fail "$file lacks the format $format"
    done
done
pass "zsh and fish know the $(echo "$options" | wc -w) options and $(echo "$formats" | wc -w) formats of --help"

# words FILE : the matches of FILE on one line, sorted.
words() { sort "$1" | tr '\n' ' ' | sed 's/ $//'; }
# section FILE LINE : the matches recorded for LINE by completion-zsh.zsh.
section() {
    awk -v want="== $2" '$0 == want { inside = 1; next } /^== / { inside = 0 } inside' "$1"
}

# --- bash ----------------------------------------------------------------------
if command -v bash >/dev/null 2>&1; then
    complete_words() {
        # complete_words WORD... : prints COMPREPLY for the last word.
        bash -c '
            . "$1"; shift
            COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
            _sandlint
            printf "%s\n" "${COMPREPLY[@]}"
        ' sh "$completion/sandlint" sandlint "$@"
    }
    complete_words --form > "$out"
    contains "$out" "--format" "bash: options from --help"
    complete_words --format "" > "$out"
    [ "$(tr '\n' ' ' < "$out")" = "text json sarif github gitlab " ] && pass "bash: formats" || fail "bash: formats: $(cat "$out")"
    complete_words --select SBX00 > "$out"
    contains "$out" "SBX001" "bash: rule codes from --list-rules (the directory's plugins not loaded)"
    contains "$out" "SBX006" "bash: every built-in rule"
    complete_words --ignore SBX001,SBX00 > "$out"
    contains "$out" "SBX001,SBX003" "bash: later items of a selector list"
    complete_words --select sandbox > "$out"
    contains "$out" "sandbox_privileges" "bash: groups"
    complete_words --color a > "$out"
    contains "$out" "always" "bash: colour modes"
    complete_words --confine r > "$out"
    [ "$(cat "$out")" = require ] && pass "bash: confinement modes" || fail "bash: --confine r: $(cat "$out")"
    complete_words ex > "$out"
    [ "$(cat "$out")" = examples ] && pass "bash: files" || fail "bash: files: $(cat "$out")"
else
    echo "completion.sh: SKIP (partly): bash is not installed"
fi

# --- zsh -----------------------------------------------------------------------
if command -v zsh >/dev/null 2>&1 && zsh -fc 'zmodload zsh/zpty' 2>/dev/null; then
    zout="$scratch/zsh.out"
    : > "$zout"
    if zsh -f "$srcdir_tests/completion-zsh.zsh" "$completion" "$zout" \
        'sandlint --form' 'sandlint --format ' 'sandlint --select SBX00' \
        'sandlint --ignore SBX001,SBX00' 'sandlint --select sandbox' \
        'sandlint --color a' 'sandlint --confine ' 'sandlint --explain SBX00' 'sandlint ex' \
        2> "$err"; then
        section "$zout" 'sandlint --form' > "$out"
        [ "$(words "$out")" = "--format" ] && pass "zsh: options" || fail "zsh: --form: $(words "$out")"
        section "$zout" 'sandlint --format ' > "$out"
        [ "$(words "$out")" = "github gitlab json sarif text" ] && pass "zsh: formats" || fail "zsh: formats: $(words "$out")"
        section "$zout" 'sandlint --select SBX00' > "$out"
        [ "$(words "$out")" = "SBX001 SBX002 SBX003 SBX004 SBX005 SBX006 SBX007 SBX008" ] \
            && pass "zsh: rule codes from --list-rules (the directory's plugins not loaded)" \
            || fail "zsh: --select SBX00: $(words "$out")"
        section "$zout" 'sandlint --ignore SBX001,SBX00' > "$out"
        [ "$(words "$out")" = "SBX002 SBX003 SBX004 SBX005 SBX006 SBX007 SBX008" ] \
            && pass "zsh: the last item of a selector list" || fail "zsh: comma list: $(words "$out")"
        section "$zout" 'sandlint --select sandbox' > "$out"
        [ "$(words "$out")" = "sandbox_hardening sandbox_privileges" ] && pass "zsh: groups" || fail "zsh: groups: $(words "$out")"
        section "$zout" 'sandlint --color a' > "$out"
        [ "$(words "$out")" = "always auto" ] && pass "zsh: colour modes" || fail "zsh: colour: $(words "$out")"
        section "$zout" 'sandlint --confine ' > "$out"
        [ "$(words "$out")" = "auto off require" ] && pass "zsh: confinement modes" || fail "zsh: confine: $(words "$out")"
        section "$zout" 'sandlint --explain SBX00' > "$out"
        contains "$out" "SBX003" "zsh: --explain completes rules"
        section "$zout" 'sandlint ex' > "$out"
        [ "$(words "$out")" = "examples" ] && pass "zsh: files" || fail "zsh: files: $(words "$out")"
    else
        fail "zsh: the completion driver failed: $(cat "$err")"
    fi
else
    echo "completion.sh: SKIP (partly): zsh (with zsh/zpty) is not installed"
fi

# --- fish ----------------------------------------------------------------------
if command -v fish >/dev/null 2>&1; then
    # fish_complete LINE : the matches fish offers for LINE, without descriptions.
    fish_complete() {
        fish --no-config -c 'source $argv[1]; complete -C $argv[2]' "$completion/sandlint.fish" "$1" |
            cut -f 1 > "$out"
    }
    fish_complete 'sandlint --form'
    [ "$(words "$out")" = "--format" ] && pass "fish: options" || fail "fish: --form: $(words "$out")"
    fish_complete 'sandlint --format '
    [ "$(words "$out")" = "github gitlab json sarif text" ] && pass "fish: formats" || fail "fish: formats: $(words "$out")"
    fish_complete 'sandlint --select SBX00'
    [ "$(words "$out")" = "SBX001 SBX002 SBX003 SBX004 SBX005 SBX006 SBX007 SBX008" ] \
        && pass "fish: rule codes from --list-rules (the directory's plugins not loaded)" \
        || fail "fish: --select SBX00: $(words "$out")"
    fish_complete 'sandlint --ignore SBX001,SBX00'
    contains "$out" "SBX001,SBX003" "fish: the last item of a selector list"
    fish_complete 'sandlint --select sandbox'
    [ "$(words "$out")" = "sandbox_hardening sandbox_privileges" ] && pass "fish: groups" || fail "fish: groups: $(words "$out")"
    fish_complete 'sandlint --color a'
    [ "$(words "$out")" = "always auto" ] && pass "fish: colour modes" || fail "fish: colour: $(words "$out")"
    fish_complete 'sandlint --confine '
    [ "$(words "$out")" = "auto off require" ] && pass "fish: confinement modes" || fail "fish: confine: $(words "$out")"
    fish_complete 'sandlint --explain '
    contains "$out" "SBX003" "fish: --explain offers rules"
    lacks "$out" "sandbox_privileges" "fish: --explain does not offer groups"
    fish_complete 'sandlint ex'
    [ "$(words "$out")" = "examples/" ] && pass "fish: files" || fail "fish: files: $(words "$out")"
else
    echo "completion.sh: SKIP (partly): fish is not installed"
fi
finish
