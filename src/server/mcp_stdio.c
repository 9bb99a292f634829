/*
 * mcp_stdio.c — MCP over stdio (`errata mcp`): newline-delimited JSON-RPC messages on stdin,
 * answers on stdout, as the MCP specification's stdio transport defines.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>

#include "mcp.h"

int mcp_stdio(errata_db *db, FILE *in, FILE *out)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    while ((n = getline(&line, &cap, in)) > 0) {
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
            line[--n] = '\0';
        if (n == 0)
            continue;
        char *answer = mcp_handle(db, line, (size_t)n);
        if (answer) {
            fputs(answer, out);
            fputc('\n', out);
            fflush(out);
            free(answer);
        }
    }
    free(line);
    return 0;
}
