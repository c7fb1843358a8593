/* main.c - the sandlint executable. */
#include "config.h"

#include "driver.h"

int main(int argc, char **argv)
{
    return sandlint_main(argc, argv);
}
