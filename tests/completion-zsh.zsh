# tests/completion-zsh.zsh FPATH_DIR OUTFILE LINE... - drives an interactive
# zsh through a pseudo-terminal (zsh/zpty): for each LINE, types it and TAB,
# and appends "== LINE" and every match the completion system offered to
# OUTFILE (one per line).  compadd is wrapped to record the matches.  Exit 1
# on a timeout, 77 when zsh/zpty is missing.  Used by tests/completion.sh.
zmodload zsh/zpty 2>/dev/null || exit 77
fdir=$1 outfile=$2
shift 2
out=
# wait_for TEXT: read the terminal until TEXT appears (compinit takes
# seconds on a busy machine: allow a minute).
wait_for() {
    local chunk start=$SECONDS
    while (( SECONDS - start < 60 )); do
        while zpty -r -t z chunk; do out+=$chunk; done
        [[ $out == *$1* ]] && { out=; return 0; }
        sleep 0.1
    done
    print -u2 "completion-zsh.zsh: timed out waiting for $1"
    return 1
}
zpty z zsh -f -i
zpty -w z "PS1='' RPS1=''; fpath=(${(q)fdir} \$fpath); autoload -Uz compinit; compinit -u -D"
zpty -w z "zstyle ':completion:*' list-prompt ''; zstyle ':completion:*' menu no"
# Calls with -O, -A or -D only collect matches for the completion system's
# own use: pass them through unrecorded.
zpty -w z "compadd() { if (( \${@[(I)-[OAD]*]} )); then builtin compadd \"\$@\"; return; fi; local -a __m; builtin compadd -A __m \"\$@\"; print -rl -- \$__m >> ${(q)outfile}; builtin compadd \"\$@\"; }"
# The marker is typed split so that only the command's output matches it.
zpty -w z "bindkey '^I' complete-word; echo READY''DONE"
wait_for READYDONE || exit 1
for line; do
    print -r -- "== $line" >> $outfile
    zpty -w -n z "$line"$'\t'$'\C-u'"echo CAPTURE''DONE"$'\n'
    wait_for CAPTUREDONE || exit 1
done
zpty -d z
