/*
 * serve_main.c — errata-serve, the program behind `errata serve` and `errata mcp`
 * (cmd_server_exec.c says why it is a program of its own).
 *
 *   errata-serve serve [OPTIONS]     the same as `errata serve [OPTIONS]`
 *   errata-serve mcp [OPTIONS]       the same as `errata mcp [OPTIONS]`
 *   errata-serve [OPTIONS]           serve
 */
#include <string.h>

#include "cli.h"

int main(int argc, char **argv)
{
    cli_common common = {NULL, false, -1, ERRATA_LANG_EN};
    if (argc > 1 && strcmp(argv[1], "mcp") == 0)
        return cmd_mcp_main(argc - 1, argv + 1, &common);
    if (argc > 1 && strcmp(argv[1], "serve") == 0)
        return cmd_serve_main(argc - 1, argv + 1, &common);
    return cmd_serve_main(argc, argv, &common);
}
