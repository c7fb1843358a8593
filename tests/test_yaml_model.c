/* Unit tests for the YAML model (core/read/yaml_model.c): SPEC §5. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host.h"
#include "sandlint/plugin.h"
#include "yaml_model.h"

static struct yaml_model model;

static int teardown(void **state)
{
    (void)state;
    model_release(&model);
    return 0;
}

static const struct sl_node *parse_ok(const char *text)
{
    assert_int_equal(model_parse(&model, text, strlen(text), NULL), MODEL_OK);
    assert_true(model.document_count >= 1);
    return model.documents[0];
}

static const struct sl_node *get(const struct sl_node *map, const char *key)
{
    return model_mapping_get(map, key, strlen(key), NULL);
}

static void assert_text(const struct sl_node *node, const char *text)
{
    assert_non_null(node);
    assert_int_equal(node->kind, SL_NODE_SCALAR);
    assert_string_equal(node->u.scalar.text, text);
}

static void assert_at(const struct sl_node *node, unsigned line, unsigned column)
{
    assert_non_null(node);
    assert_int_equal(node->line, line);
    assert_int_equal(node->column, column);
}

/* ---- positions --------------------------------------------------------- */

static void test_positions_are_one_based(void **state)
{
    (void)state;
    const struct sl_node *root = parse_ok("services:\n  web:\n    image: nginx\n");
    const struct sl_node *key;
    const struct sl_node *services = model_mapping_get(root, "services", 8, &key);
    assert_at(key, 1, 1);
    assert_int_equal(key->end_line, 1);
    assert_int_equal(key->end_column, 9);   /* exclusive end */
    const struct sl_node *image = get(get(services, "web"), "image");
    assert_at(image, 3, 12);
    assert_int_equal(image->end_column, 17);
}

static void test_flow_list_items_share_a_line(void **state)
{
    (void)state;
    const struct sl_node *root = parse_ok("cap_add: [SYS_ADMIN, NET_ADMIN]\n");
    const struct sl_node *list = get(root, "cap_add");
    assert_int_equal(list->kind, SL_NODE_SEQUENCE);
    assert_int_equal(list->style, SL_STYLE_FLOW);
    assert_at(list->u.sequence.items[0], 1, 11);
    assert_at(list->u.sequence.items[1], 1, 22);
}

static void test_block_collection_ends_at_last_child(void **state)
{
    (void)state;
    const struct sl_node *root =
        parse_ok("volumes:\n  - type: bind\n    source: /srv\n\nother: 1\n");
    const struct sl_node *item = get(root, "volumes")->u.sequence.items[0];
    assert_at(item, 2, 5);
    assert_int_equal(item->end_line, 3);
    assert_int_equal(item->end_column, 17);
}

static void test_crlf_lines_stay_right(void **state)
{
    (void)state;
    const struct sl_node *root = parse_ok("a: 1\r\nb:\r\n  - x\r\n  - y\r\n");
    assert_at(get(root, "b")->u.sequence.items[1], 4, 5);
}

static void test_columns_count_code_points(void **state)
{
    (void)state;
    const struct sl_node *root = parse_ok("\xc3\xa9t\xc3\xa9: [a, b]\n");
    assert_at(get(root, "\xc3\xa9t\xc3\xa9")->u.sequence.items[1], 1, 10);
}

/* ---- anchors, aliases, merges ------------------------------------------ */

static void test_aliases_share_the_node(void **state)
{
    (void)state;
    const struct sl_node *root = parse_ok("a: &x [1, 2]\nb: *x\nc: *x\n");
    assert_ptr_equal(get(root, "a"), get(root, "b"));
    assert_ptr_equal(get(root, "b"), get(root, "c"));
}

static void test_redefined_anchor_applies_afterwards(void **state)
{
    (void)state;
    const struct sl_node *root = parse_ok("a: &x one\nb: *x\nc: &x two\nd: *x\n");
    assert_text(get(root, "b"), "one");
    assert_text(get(root, "d"), "two");
}

static void test_merge_written_keys_win(void **state)
{
    (void)state;
    const struct sl_node *root = parse_ok(
        "base: &b\n  privileged: true\n  image: base\n"
        "svc:\n  image: own\n  <<: *b\n");
    const struct sl_node *svc = get(root, "svc");
    assert_int_equal(svc->u.mapping.count, 2);
    assert_text(get(svc, "image"), "own");
    const struct sl_node *key;
    const struct sl_node *privileged =
        model_mapping_get(svc, "privileged", 10, &key);
    assert_text(privileged, "true");
    /* The merged key keeps where it was written: inside the anchor. */
    assert_at(key, 2, 3);
    assert_at(privileged, 2, 15);
    for (size_t i = 0; i < svc->u.mapping.count; i++) {
        const struct model_pair *pair = &svc->u.mapping.pairs[i];
        int merged = strcmp(pair->key->u.scalar.text, "privileged") == 0;
        assert_int_equal(pair->flags & SL_ENTRY_MERGED, merged ? SL_ENTRY_MERGED : 0);
    }
}

static void test_merge_earlier_sources_win(void **state)
{
    (void)state;
    const struct sl_node *root = parse_ok(
        "a: &a {x: from_a}\nb: &b {x: from_b, y: from_b}\n"
        "svc:\n  <<: [*a, *b]\n");
    const struct sl_node *svc = get(root, "svc");
    assert_text(get(svc, "x"), "from_a");
    assert_text(get(svc, "y"), "from_b");
    assert_int_equal(svc->u.mapping.count, 2);
}

static void test_merge_is_transitive(void **state)
{
    (void)state;
    const struct sl_node *root = parse_ok(
        "a: &a {cap_add: [SYS_ADMIN]}\nb: &b {<<: *a, pid: host}\n"
        "svc: {<<: *b}\n");
    const struct sl_node *svc = get(root, "svc");
    assert_non_null(get(svc, "cap_add"));
    assert_text(get(svc, "pid"), "host");
}

static void test_merge_of_scalar_warns(void **state)
{
    (void)state;
    const struct sl_node *root = parse_ok("a: &a text\nsvc:\n  <<: *a\n  k: v\n");
    assert_int_equal(get(root, "svc")->u.mapping.count, 1);
    assert_int_equal(model.warning_count, 1);
    assert_non_null(strstr(model.warnings[0].message, "merge key"));
}

static void test_quoted_merge_key_is_an_ordinary_key(void **state)
{
    (void)state;
    const struct sl_node *root = parse_ok("a: &a {x: 1}\nsvc: {\"<<\": *a}\n");
    assert_null(get(get(root, "svc"), "x"));
    assert_non_null(get(get(root, "svc"), "<<"));
}

static void test_duplicate_keys_later_wins(void **state)
{
    (void)state;
    const struct sl_node *root = parse_ok("svc:\n  pid: host\n  image: x\n  pid: private\n");
    const struct sl_node *key;
    const struct sl_node *pid = model_mapping_get(get(root, "svc"), "pid", 3, &key);
    assert_text(pid, "private");
    assert_at(key, 4, 3);
    assert_int_equal(get(root, "svc")->u.mapping.count, 2);
}

static void test_many_keys_dedupe_with_hash(void **state)
{
    (void)state;
    /* 2,000 keys, each written twice: the hash path of the resolver. */
    size_t size = 2000 * 2 * 24 + 16;
    char *text = malloc(size);
    size_t used = 0;
    for (int round = 0; round < 2; round++)
        for (int i = 0; i < 2000; i++)
            used += (size_t)snprintf(text + used, size - used, "k%d: r%d\n", i, round);
    assert_int_equal(model_parse(&model, text, used, NULL), MODEL_OK);
    const struct sl_node *root = model.documents[0];
    assert_int_equal(root->u.mapping.count, 2000);
    assert_text(get(root, "k1999"), "r1");
    free(text);
}

/* ---- tags, nulls, documents -------------------------------------------- */

static void test_tags_are_kept(void **state)
{
    (void)state;
    const struct sl_node *root = parse_ok(
        "cap_add: !override [SYS_ADMIN]\ndevices: !reset []\nn: !!str 5\n");
    assert_string_equal(get(root, "cap_add")->tag, "!override");
    assert_string_equal(get(root, "devices")->tag, "!reset");
    assert_string_equal(get(root, "n")->tag, "tag:yaml.org,2002:str");
}

static void test_null_values(void **state)
{
    (void)state;
    const struct sl_node *root = parse_ok(
        "a:\nb: ~\nc: null\nd: NULL\ne: \"\"\nf: !!str null\ng: 'null'\n");
    assert_true(model_is_null(get(root, "a")));
    assert_true(model_is_null(get(root, "b")));
    assert_true(model_is_null(get(root, "c")));
    assert_true(model_is_null(get(root, "d")));
    assert_false(model_is_null(get(root, "e")));
    assert_false(model_is_null(get(root, "f")));
    assert_false(model_is_null(get(root, "g")));
}

static void test_multiple_documents(void **state)
{
    (void)state;
    const char *text = "a: 1\n---\nb: 2\n---\n- c\n";
    assert_int_equal(model_parse(&model, text, strlen(text), NULL), MODEL_OK);
    assert_int_equal(model.document_count, 3);
    assert_text(get(model.documents[1], "b"), "2");
    assert_at(get(model.documents[1], "b"), 3, 4);
    assert_int_equal(model.documents[2]->kind, SL_NODE_SEQUENCE);
}

static void test_anchors_are_scoped_to_their_document(void **state)
{
    (void)state;
    const char *text = "a: &x 1\n---\nb: *x\n";
    assert_int_equal(model_parse(&model, text, strlen(text), NULL), MODEL_OK);
    assert_true(model_is_null(get(model.documents[1], "b")));
    assert_int_equal(model.warning_count, 1);
    assert_non_null(strstr(model.warnings[0].message, "names no anchor"));
    assert_int_equal(model.warnings[0].line, 3);
    assert_int_equal(model.warnings[0].column, 4);
}

static void test_escaped_nul_keeps_length(void **state)
{
    (void)state;
    const struct sl_node *root = parse_ok("a: \"x\\0y\"\n");
    const struct sl_node *a = get(root, "a");
    assert_int_equal(a->u.scalar.length, 3);
    assert_int_equal(a->u.scalar.text[1], '\0');
}

/* ---- errors and hostile input ------------------------------------------ */

static void test_syntax_error_has_position(void **state)
{
    (void)state;
    const char *text = "services:\n  web:\n    image: [unclosed\n  db: {}\n";
    assert_int_equal(model_parse(&model, text, strlen(text), NULL), MODEL_SYNTAX_ERROR);
    assert_int_equal(model.document_count, 0);
    assert_true(model.error.line >= 3);
    assert_true(model.error.column >= 1);
    assert_non_null(strstr(model.error.message, "YAML syntax error"));
}

static void test_alias_bomb_is_linear(void **state)
{
    (void)state;
    /* Nine levels of nine aliases: 9^9 leaves if copied. */
    char text[4096];
    size_t used = (size_t)snprintf(text, sizeof(text), "a0: &a0 [lol]\n");
    for (int level = 1; level <= 9; level++) {
        used += (size_t)snprintf(text + used, sizeof(text) - used,
                                 "a%d: &a%d [", level, level);
        for (int i = 0; i < 9; i++)
            used += (size_t)snprintf(text + used, sizeof(text) - used,
                                     "%s*a%d", i ? ", " : "", level - 1);
        used += (size_t)snprintf(text + used, sizeof(text) - used, "]\n");
    }
    assert_int_equal(model_parse(&model, text, used, NULL), MODEL_OK);
    /* Shared, never copied: the node count is that of the text. */
    assert_true(model.node_count < 200);
}

static void test_self_referential_merge(void **state)
{
    (void)state;
    const struct sl_node *root = parse_ok("a: &a\n  x: 1\n  <<: *a\nb:\n  <<: *a\n");
    assert_text(get(get(root, "b"), "x"), "1");
    assert_true(model.warning_count >= 1);
    assert_non_null(strstr(model.warnings[0].message, "contains it"));
}

static void test_recursive_sequence_alias(void **state)
{
    (void)state;
    const struct sl_node *root = parse_ok("a: &a [1, *a]\n");
    const struct sl_node *a = get(root, "a");
    assert_int_equal(a->u.sequence.count, 2);
    assert_true(model_is_null(a->u.sequence.items[1]));
}

static char *repeat(const char *open, size_t times, const char *middle,
                    const char *close, size_t *length)
{
    size_t open_length = strlen(open), close_length = strlen(close);
    size_t size = times * (open_length + close_length) + strlen(middle) + 2;
    char *text = malloc(size);
    size_t used = 0;
    for (size_t i = 0; i < times; i++, used += open_length)
        memcpy(text + used, open, open_length);
    used += (size_t)snprintf(text + used, size - used, "%s", middle);
    for (size_t i = 0; i < times; i++, used += close_length)
        memcpy(text + used, close, close_length);
    text[used++] = '\n';
    *length = used;
    return text;
}

static void test_deep_flow_nesting_is_refused_fast(void **state)
{
    (void)state;
    size_t length;
    char *text = repeat("[", 100000, "x", "]", &length);
    /* libyaml's flow scanner is quadratic in depth; stopping at the depth
     * limit keeps this bounded (bench/ measures it, not this test). */
    assert_int_equal(model_parse(&model, text, length, NULL), MODEL_LIMIT_EXCEEDED);
    assert_non_null(strstr(model.error.message, "nesting deeper than 10000 levels "
                                                "(the nesting limit"));
    assert_int_equal(model.error.line, 1);
    assert_int_equal(model.error.column, 10001);
    free(text);
}

static void test_deep_block_nesting_is_refused(void **state)
{
    (void)state;
    size_t length;
    char *text = repeat("- ", 100000, "x", "", &length);
    assert_int_equal(model_parse(&model, text, length, NULL), MODEL_LIMIT_EXCEEDED);
    assert_non_null(strstr(model.error.message, "the nesting limit"));
    free(text);
}

static void test_nesting_within_limit_is_fine(void **state)
{
    (void)state;
    size_t length;
    char *text = repeat("{a: ", 100, "1", "}", &length);
    assert_int_equal(model_parse(&model, text, length, NULL), MODEL_OK);
    free(text);
}

/* Docker Compose accepts 10,000 levels: so does the model, flow or block,
 * and the 10,001st is refused at its position. */
static void test_nesting_limit_is_compose_s(void **state)
{
    (void)state;
    static const struct { const char *open, *close; } styles[] = {
        { "[", "]" }, { "{a: ", "}" }, { "- ", "" },
    };
    for (size_t s = 0; s < sizeof(styles) / sizeof(styles[0]); s++) {
        size_t length;
        char *text = repeat(styles[s].open, 10000, "x", styles[s].close, &length);
        assert_int_equal(model_parse(&model, text, length, NULL), MODEL_OK);
        const struct sl_node *node = model.documents[0];
        size_t depth = 0;
        while (node->kind != SL_NODE_SCALAR) {
            node = node->kind == SL_NODE_SEQUENCE ? node->u.sequence.items[0]
                                                  : node->u.mapping.pairs[0].value;
            depth++;
        }
        assert_int_equal(depth, 10000);
        model_release(&model);
        free(text);
        text = repeat(styles[s].open, 10001, "x", styles[s].close, &length);
        assert_int_equal(model_parse(&model, text, length, NULL), MODEL_LIMIT_EXCEEDED);
        assert_int_equal(model.error.line, 1);
        assert_int_equal(model.error.column, 10000 * strlen(styles[s].open) + 1);
        model_release(&model);
        free(text);
    }
}

static void test_node_budget(void **state)
{
    (void)state;
    struct model_limits limits = { 10, 0 };
    const char *text = "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]\n";
    assert_int_equal(model_parse(&model, text, strlen(text), &limits),
                     MODEL_LIMIT_EXCEEDED);
    assert_string_equal(model.error.message, "file has more than 10 YAML nodes "
                        "(the node limit, --max-nodes); not checked");
    assert_int_equal(model.error.line, 1);
    assert_int_equal(model.error.column, 29);
}

static void test_merge_chain_counts_against_budget(void **state)
{
    (void)state;
    /* Each mapping merges the previous one and adds a key: the resolved
     * sizes grow quadratically, so the budget must stop it. */
    size_t size = 400 * 64;
    char *text = malloc(size);
    size_t used = (size_t)snprintf(text, size, "m0: &m0 {k0: 0}\n");
    for (int i = 1; i < 400; i++)
        used += (size_t)snprintf(text + used, size - used,
                                 "m%d: &m%d {<<: *m%d, k%d: %d}\n", i, i, i - 1, i, i);
    struct model_limits limits = { 20000, 0 };
    assert_int_equal(model_parse(&model, text, used, &limits), MODEL_LIMIT_EXCEEDED);
    assert_string_equal(model.error.message, "merge keys ('<<') expand the file to "
                        "more than 20000 YAML nodes (the node limit, --max-nodes); "
                        "not checked");
    /* At the mapping whose merge went over (libyaml starts it at its
     * anchor): "m195: &m195 {<<: *m194, ...}" on line 196. */
    assert_int_equal(model.error.line, 196);
    assert_int_equal(model.error.column, 7);
    model_release(&model);
    assert_int_equal(model_parse(&model, text, used, NULL), MODEL_OK);
    assert_int_equal(model.documents[0]->u.mapping.pairs[399].value->u.mapping.count, 400);
    free(text);
}

/* libyaml works in proportion to the flow depth for every token: many nodes
 * deep inside flow collections are refused by their own budget. */
static void test_flow_work_budget(void **state)
{
    (void)state;
    size_t size = 64 * 1024;
    char *text = malloc(size);
    size_t used = 0;
    for (int i = 0; i < 50; i++)
        text[used++] = '[';
    for (int i = 0; i < 500; i++)
        used += (size_t)snprintf(text + used, size - used, "x, ");
    text[used++] = 'x';
    for (int i = 0; i < 50; i++)
        text[used++] = ']';
    text[used++] = '\n';
    /* 552 nodes: within the node limit, but 50 levels x 500 nodes is over
     * 20 x 1000. */
    struct model_limits limits = { 1000, 0 };
    assert_int_equal(model_parse(&model, text, used, &limits), MODEL_LIMIT_EXCEEDED);
    assert_string_equal(model.error.message, "flow collections ('[', '{') nested "
                        "50 deep hold too many nodes to parse in bounded time (the "
                        "parse budget, 20 x --max-nodes); not checked");
    assert_int_equal(model.error.line, 1);
    assert_true(model.error.column > 50);
    model_release(&model);
    /* The same nodes in a list one level deep are fine. */
    assert_int_equal(model_parse(&model, text + 49, used - 99, &limits), MODEL_OK);
    assert_int_equal(model.documents[0]->u.sequence.count, 501);
    free(text);
}

static void test_empty_input(void **state)
{
    (void)state;
    assert_int_equal(model_parse(&model, "", 0, NULL), MODEL_OK);
    assert_int_equal(model.document_count, 0);
    model_release(&model);
    assert_int_equal(model_parse(&model, "# only a comment\n", 17, NULL), MODEL_OK);
    assert_int_equal(model.document_count, 0);
}

/* A front-end that reads no YAML makes scalar nodes with the positions of
 * what it read; plugins read them through the same node API. */
static void test_scalar_node_of_another_reader(void **state)
{
    (void)state;
    struct arena arena;
    struct sl_span span = { 4, 13, 4, 25 }, seen;
    const struct sl_host *host = host_services();
    size_t length;
    arena_init(&arena);
    struct sl_node *node = model_node_scalar(&arena, "SYS_ADMIN\0x", 11,
                                             SL_STYLE_DOUBLE_QUOTED, &span);
    assert_non_null(node);
    assert_int_equal(host->node_kind(node), SL_NODE_SCALAR);
    assert_int_equal(host->node_style(node), SL_STYLE_DOUBLE_QUOTED);
    assert_memory_equal(host->node_text(node, &length), "SYS_ADMIN\0x", 12);
    assert_int_equal(length, 11);
    assert_false(host->is_empty(node));
    host->node_span(node, &seen);
    assert_memory_equal(&seen, &span, sizeof(span));
    arena_release(&arena);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_positions_are_one_based, teardown),
        cmocka_unit_test_teardown(test_flow_list_items_share_a_line, teardown),
        cmocka_unit_test_teardown(test_block_collection_ends_at_last_child, teardown),
        cmocka_unit_test_teardown(test_crlf_lines_stay_right, teardown),
        cmocka_unit_test_teardown(test_columns_count_code_points, teardown),
        cmocka_unit_test_teardown(test_aliases_share_the_node, teardown),
        cmocka_unit_test_teardown(test_redefined_anchor_applies_afterwards, teardown),
        cmocka_unit_test_teardown(test_merge_written_keys_win, teardown),
        cmocka_unit_test_teardown(test_merge_earlier_sources_win, teardown),
        cmocka_unit_test_teardown(test_merge_is_transitive, teardown),
        cmocka_unit_test_teardown(test_merge_of_scalar_warns, teardown),
        cmocka_unit_test_teardown(test_quoted_merge_key_is_an_ordinary_key, teardown),
        cmocka_unit_test_teardown(test_duplicate_keys_later_wins, teardown),
        cmocka_unit_test_teardown(test_many_keys_dedupe_with_hash, teardown),
        cmocka_unit_test_teardown(test_tags_are_kept, teardown),
        cmocka_unit_test_teardown(test_null_values, teardown),
        cmocka_unit_test_teardown(test_multiple_documents, teardown),
        cmocka_unit_test_teardown(test_anchors_are_scoped_to_their_document, teardown),
        cmocka_unit_test_teardown(test_escaped_nul_keeps_length, teardown),
        cmocka_unit_test_teardown(test_syntax_error_has_position, teardown),
        cmocka_unit_test_teardown(test_alias_bomb_is_linear, teardown),
        cmocka_unit_test_teardown(test_self_referential_merge, teardown),
        cmocka_unit_test_teardown(test_recursive_sequence_alias, teardown),
        cmocka_unit_test_teardown(test_deep_flow_nesting_is_refused_fast, teardown),
        cmocka_unit_test_teardown(test_deep_block_nesting_is_refused, teardown),
        cmocka_unit_test_teardown(test_nesting_within_limit_is_fine, teardown),
        cmocka_unit_test_teardown(test_nesting_limit_is_compose_s, teardown),
        cmocka_unit_test_teardown(test_node_budget, teardown),
        cmocka_unit_test_teardown(test_merge_chain_counts_against_budget, teardown),
        cmocka_unit_test_teardown(test_flow_work_budget, teardown),
        cmocka_unit_test_teardown(test_empty_input, teardown),
        cmocka_unit_test(test_scalar_node_of_another_reader),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
