/* finding.c - the findings of a run (see finding.h). */
#include "config.h"

#include "finding.h"

#include <stdlib.h>
#include <string.h>

#include "discover.h"
#include "xalloc.h"

void finding_list_init(struct finding_list *list)
{
    list->items = NULL;
    list->count = 0;
    list->capacity = 0;
}

void finding_release(struct finding *finding)
{
    free(finding->package);
    free(finding->file);
    free(finding->service);
    free(finding->field);
    free(finding->value);
    free(finding->key);
    free(finding->message);
    free(finding->hint);
    free(finding->suppression_reason);
    memset(finding, 0, sizeof(*finding));
}

void finding_list_release(struct finding_list *list)
{
    for (size_t i = 0; i < list->count; i++)
        finding_release(&list->items[i]);
    free(list->items);
    finding_list_init(list);
}

struct finding *finding_list_add(struct finding_list *list)
{
    if (list->count == list->capacity) {
        list->capacity = list->capacity ? list->capacity * 2 : 16;
        list->items = xrealloc(list->items, list->capacity, sizeof(*list->items));
    }
    struct finding *finding = &list->items[list->count++];
    memset(finding, 0, sizeof(*finding));
    return finding;
}

void finding_list_take(struct finding_list *to, struct finding_list *from)
{
    if (from->count == 0)
        return;
    if (to->count + from->count > to->capacity) {
        to->capacity = to->count + from->count;
        to->items = xrealloc(to->items, to->capacity, sizeof(*to->items));
    }
    memcpy(to->items + to->count, from->items, from->count * sizeof(*from->items));
    to->count += from->count;
    free(from->items);
    finding_list_init(from);
}

static const char *(*sort_rule_code)(size_t rule);

static int compare_bytes(const char *a, size_t a_length, const char *b,
                         size_t b_length)
{
    if (a == NULL || b == NULL)
        return (a != NULL) - (b != NULL);
    size_t common = a_length < b_length ? a_length : b_length;
    int order = memcmp(a, b, common);
    if (order != 0)
        return order;
    return (a_length > b_length) - (a_length < b_length);
}

static int compare_findings(const void *left, const void *right)
{
    const struct finding *a = left, *b = right;
    /* Files in the order discovery yields them: component by component. */
    int order = discover_compare(a->file ? a->file : "", b->file ? b->file : "");
    if (order != 0)
        return order;
    if (a->line != b->line)
        return a->line < b->line ? -1 : 1;
    if (a->column != b->column)
        return a->column < b->column ? -1 : 1;
    order = strcmp(sort_rule_code(a->rule), sort_rule_code(b->rule));
    if (order != 0)
        return order;
    order = compare_bytes(a->key, a->key_length, b->key, b->key_length);
    if (order != 0)
        return order;
    return strcmp(a->message ? a->message : "", b->message ? b->message : "");
}

void finding_list_sort(struct finding_list *list,
                       const char *(*rule_code)(size_t rule))
{
    sort_rule_code = rule_code;
    if (list->count > 1)
        qsort(list->items, list->count, sizeof(*list->items), compare_findings);
}
