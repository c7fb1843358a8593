/* A shared object without the entry symbol: not a sandlint plugin. */
int not_a_plugin(void);
int not_a_plugin(void)
{
    return 42;
}
