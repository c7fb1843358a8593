# fish completion for sandlint(1); installed as
# $(datadir)/fish/vendor_completions.d/sandlint.fish.

# Rule selectors: the codes, names and groups of the rules sandlint loads,
# with the rule's summary.  --root / keeps the configuration of the current
# directory out of it: that file may name plugins, and completing a word
# must never load code from a repository that is only being looked at.
function __sandlint_rules
    set -l sandlint (commandline -opc)[1]
    command $sandlint --root / --list-rules 2>/dev/null | awk '
        NR > 1 {
            summary = $5
            for (i = 6; i <= NF; i++) summary = summary " " $i
            print $1 "\t" summary; print $2 "\t" summary
            if (!seen[$3]++) print $3 "\tgroup"
        }'
end

# A comma-separated selector list: complete its last item.
function __sandlint_selectors
    set -l token (commandline -ct)
    set -l prefix (string replace -r '[^,]*$' '' -- $token)
    __sandlint_rules | string replace -r '^' -- $prefix
end

complete -c sandlint -s h -l help -d 'Print the help and exit'
complete -c sandlint -s V -l version -d 'Print the version and exit'
complete -c sandlint -s f -l format -x -a 'text json sarif github gitlab' -d 'Report format'
complete -c sandlint -s o -l output -r -F -d 'Write the report to a file'
complete -c sandlint -s q -l quiet -d 'No summary line on stderr'
complete -c sandlint -l color -l colour -x -a 'auto always never' -d 'Colour the text report'
complete -c sandlint -l root -x -a '(__fish_complete_directories)' -d 'Repository root'
complete -c sandlint -l config -r -F -d 'Configuration file'
complete -c sandlint -l select -x -a '(__sandlint_selectors)' -d 'Run only these rules'
complete -c sandlint -l ignore -x -a '(__sandlint_selectors)' -d 'Do not run these rules'
complete -c sandlint -l extend-select -x -a '(__sandlint_selectors)' -d 'Run these rules too'
complete -c sandlint -l show-accepted -d 'Also print allowlisted and suppressed findings'
complete -c sandlint -l strict -d 'Warnings fail too'
complete -c sandlint -l exit-zero -d 'Exit 0 even when findings fail'
complete -c sandlint -l allow-no-files -d 'Exit 0 when there is no sandbox file (hooks)'
complete -c sandlint -l update-allowlist -d 'Write the configuration so that this run passes'
complete -c sandlint -l allowlist-scope -x -a 'file package' -d 'What new allowlist entries cover'
complete -c sandlint -l narrow -d 'Rewrite * and package entries into one entry per file'
complete -c sandlint -l allowlist-suppressed -d 'Also write entries for findings comments accept'
complete -c sandlint -l untrusted -d 'Take no configuration or comment from the scanned tree'
complete -c sandlint -l stdin-filename -r -F -d 'Name of the file read from standard input'
complete -c sandlint -l plugin -r -F -d 'Load an extra plugin'
complete -c sandlint -l plugin-dir -x -a '(__fish_complete_directories)' -d 'Look up plugins here first'
complete -c sandlint -l no-default-plugins -d 'Load only the plugins named with --plugin'
complete -c sandlint -l list-rules -d 'List every loaded rule and exit (text or json)'
complete -c sandlint -l list-plugins -d 'List every loaded plugin and exit (text or json)'
complete -c sandlint -l explain -x -a '(__sandlint_rules | string match -v -r "\tgroup\$")' -d 'Show the documentation of a rule'
complete -c sandlint -s j -l jobs -x -d 'Number of worker processes'
complete -c sandlint -l timeout -x -d 'Give up on a file after this many seconds'
complete -c sandlint -l no-isolation -d 'Check in the sandlint process itself'
complete -c sandlint -l confine -x -a 'auto require off' -d 'Confine the scan with Landlock and seccomp'
complete -c sandlint -l sandbox-check -d 'Report and test the confinement and exit'
complete -c sandlint -l max-file-size -x -d 'Skip files larger than this (K, M, G)'
complete -c sandlint -l max-nodes -x -d 'Skip files with more YAML nodes than this'
complete -c sandlint -l max-memory -x -d 'Memory of each worker process (K, M, G)'
# Operands: files (a file named on the command line is checked whatever
# its name) and directories, fish's default.
