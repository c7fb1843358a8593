# tests/toml.mk - tests of the TOML 1.0 reader (core/read/toml/).
# Included from the top-level Makefile.am (non-recursive); core/read/toml/ itself
# is listed in libsandlint_core_la_SOURCES there.
#
# tests/toml_decode     toml-test decoder: FILE -> tagged JSON, or
#                       FILE:LINE:COL: message and exit 1
# tests/test_toml       cmocka unit tests (TAP through CMOCKA_MESSAGE_OUTPUT)
# tests/toml-suite.sh   toml-test 1.0 conformance run.  Finds the decoder via
#                       $TOML_DECODE, else $abs_top_builddir/tests/toml_decode,
#                       and the suite via $TOML_TEST_DIR, else the copy in
#                       $abs_top_srcdir/tests/data/toml-test (distributed:
#                       tests/data is in EXTRA_DIST); the AM_TESTS_ENVIRONMENT
#                       of Makefile.am already exports both directories.  Set
#                       TOML_DECODE_WRAPPER (e.g. to a valgrind command) to
#                       run every decode under it.

check_PROGRAMS += tests/toml_decode
tests_toml_decode_SOURCES = tests/toml_decode.c
tests_toml_decode_LDADD = libsandlint_core.la

if HAVE_CMOCKA
check_PROGRAMS += tests/test_toml
TESTS += tests/test_toml
endif
tests_test_toml_SOURCES = tests/test_toml.c
tests_test_toml_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_toml_LDADD = libsandlint_core.la $(CMOCKA_LIBS)

TESTS += tests/toml-suite.sh
EXTRA_DIST += tests/toml-suite.sh
