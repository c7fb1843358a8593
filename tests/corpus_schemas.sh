#!/bin/sh
# The shared corpus's SARIF validates against the SARIF 2.1.0 schema and
# sandlint's promises (tests/sarif_check.py).  Needs the corpus and
# python3-jsonschema: SKIP (77) without either.
. "${abs_top_srcdir:?}/tests/lib.sh"
python=/usr/bin/python3
[ -x "$python" ] || python=python3
corpus="${SHARED_DIR:-}/corpus"
if [ ! -d "$corpus" ]; then
    echo "corpus_schemas.sh: SKIP: no corpus at $corpus"
    exit 77
fi
if ! "$python" -c 'import jsonschema' 2>/dev/null; then
    echo "corpus_schemas.sh: SKIP: python3-jsonschema is missing"
    exit 77
fi
make_scratch
schema="$srcdir_tests/data/sarif/sarif-schema-2.1.0.json"
sl --format sarif --root "$corpus" "$corpus" >"$scratch/corpus.sarif" 2>/dev/null || true
"$python" "$srcdir_tests/sarif_check.py" "$schema" "$scratch/corpus.sarif" \
    && pass "SARIF of the corpus validates" || fail "corpus SARIF does not validate"
finish
