#!/bin/sh
# fuzz/run.sh TARGET SECONDS [JOBS] - runs one libFuzzer target (built with
# ./configure CC=clang --enable-fuzzing && make) for SECONDS, seeded from
# the golden fixtures, the shared corpus and the toml-test cases.  The
# growing corpus is kept in fuzz/corpus/TARGET (not committed); crashes
# land in fuzz/crashes/TARGET.  Targets: compose toml ini suppress
# interpolation jsonc shell_words engine_command (the last three seeded
# from fuzz/seeds/TARGET, shell_words also from the project's own shell
# scripts, engine_command from the golden fixtures).
set -eu
target=${1:?target: compose, toml, ini, suppress, interpolation, jsonc, shell_words or engine_command}
seconds=${2:-60}
jobs=${3:-1}
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
shared=${SHARED_DIR:-$top/../shared}
build=${FUZZ_BUILD_DIR:-$top}
binary="$build/fuzz/fuzz_$target"
[ -x "$binary" ] || { echo "run.sh: $binary is not built (configure --enable-fuzzing)" >&2; exit 1; }
corpus="$here/corpus/$target"
crashes="$here/crashes/$target"
mkdir -p "$corpus" "$crashes"
seed() {
    # seed FILE...: copy into the corpus once (named by content).
    for file in "$@"; do
        [ -f "$file" ] || continue
        name=$(cksum < "$file" | tr ' ' '_')
        [ -e "$corpus/$name" ] || cp "$file" "$corpus/$name"
    done
}
if [ -z "$(ls -A "$corpus")" ]; then
    case $target in
        compose|suppress)
            seed "$top"/tests/golden/*.yaml "$top"/tests/golden/*/*.y*ml "$top"/tests/golden/*/*/*.y*ml \
                 "$top"/tests/golden/*/*/*/*.y*ml "$top"/tests/fuzz-regressions/"$target"/*
            find "$shared/corpus" -name '*.y*ml' -size -64k 2>/dev/null | head -3000 | while read -r f; do seed "$f"; done
            if [ "$target" = compose ]; then
                # Kubernetes sandboxes, behind the byte that picks their
                # kind in fuzz_compose.c (0xf9 values, 0xfa manifests).
                tmp=$(mktemp)
                find "$shared/corpus-k8s" -name '*.y*ml' -size -64k 2>/dev/null | while read -r f; do
                    case ${f##*/} in *values*) printf '\371' ;; *) printf '\372' ;; esac > "$tmp"
                    cat "$f" >> "$tmp"
                    seed "$tmp"
                done
                rm -f "$tmp"
            fi ;;
        toml)
            find "$top/tests/data/toml-test/tests" -name '*.toml' 2>/dev/null | while read -r f; do seed "$f"; done
            seed "$top"/tests/golden/*/pyproject.toml "$top"/tests/fuzz-regressions/toml/* ;;
        ini)
            seed "$top"/tests/golden/*/.sandlint.ini "$top"/tests/fuzz-regressions/ini/*
            printf '[sandlint]\npackages = a/*, b\nselect = SBX\n[allowlist sandbox_privileges]\np = web:privileged\n' > "$corpus/seed.ini" ;;
        interpolation)
            # fuzz_interpolation.c's input: top .env, 0xff, included .env,
            # then 0xff-separated values.  The committed seeds, the corpus's
            # .env files, and the lines of corpus files that interpolate.
            seed "$here"/seeds/interpolation/* "$top"/tests/fuzz-regressions/interpolation/*
            tmp=$(mktemp)
            find "$shared/corpus" -name '*.env' -size -64k 2>/dev/null | while read -r f; do
                { cat "$f"; printf '\377\377${A:-x}'; } > "$tmp"
                seed "$tmp"
            done
            grep -rl '\${' "$shared/corpus" --include='*.y*ml' 2>/dev/null | head -500 | while read -r f; do
                { printf '\377\377'; grep -h '\$' "$f" | head -50 | tr '\n' '\377'; } > "$tmp"
                seed "$tmp"
            done
            rm -f "$tmp" ;;
        jsonc)
            seed "$here"/seeds/jsonc/* "$top"/tests/fuzz-regressions/jsonc/* ;;
        engine_command)
            # fuzz_engine_command.c: a first byte picks script, Makefile or
            # config.toml; the committed seeds and the golden fixtures.
            seed "$here"/seeds/engine_command/* "$top"/tests/fuzz-regressions/engine_command/*
            tmp=$(mktemp)
            for f in "$top"/tests/golden/*.sh; do { printf '\000'; cat "$f"; } > "$tmp"; seed "$tmp"; done
            for f in "$top"/tests/golden/*/Makefile; do { printf '\001'; cat "$f"; } > "$tmp"; seed "$tmp"; done
            for f in "$top"/tests/golden/*/*/config.toml; do { printf '\002'; cat "$f"; } > "$tmp"; seed "$tmp"; done
            rm -f "$tmp" ;;
        shell_words)
            seed "$here"/seeds/shell_words/* "$top"/tests/fuzz-regressions/shell_words/* \
                 "$top"/tests/*.sh "$top"/fuzz/run.sh "$top"/maint/*.sh "$top"/action/*.sh ;;
    esac
fi
dict=""
[ -f "$here/$target.dict" ] && dict="-dict=$here/$target.dict"
parallel=""
[ "$jobs" -gt 1 ] && parallel="-fork=$jobs -ignore_crashes=1"
# shellcheck disable=SC2086
exec "$binary" $dict $parallel -max_total_time="$seconds" -timeout=10 \
    -rss_limit_mb=2048 -max_len=65536 -artifact_prefix="$crashes/" \
    -print_final_stats=1 "$corpus"
