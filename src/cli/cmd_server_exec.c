/*
 * cmd_server_exec.c — `errata serve` and `errata mcp` in the errata command: they run
 * errata-serve, which holds the server and the HTTP stack.
 *
 * Why a second program: libmicrohttpd pulls in gnutls, nettle, gmp, p11-kit and more, a dozen
 * shared libraries that every `errata lookup` would otherwise load and relocate at start for
 * nothing. errata links none of them (tests/cli/test_cli.sh checks with ldd).
 *
 * errata-serve is looked for next to the running errata first (the build tree, or an
 * installation in one folder), then at the path it is installed to. It gets the same arguments,
 * with a --db given before the command passed on after it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

#ifndef ERRATA_SERVE_PATH
#define ERRATA_SERVE_PATH "errata-serve"
#endif

/* dir/errata-serve for the folder of the running executable; false if it cannot be known. */
static bool beside_self(char *out, size_t size)
{
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return false;
    self[n] = '\0';
    char *slash = strrchr(self, '/');
    if (!slash)
        return false;
    *slash = '\0';
    return (size_t)snprintf(out, size, "%s/errata-serve", self) < size;
}

static int run_server(int argc, char **argv, cli_common *common)
{
    /* errata-serve COMMAND [--db FILE] ARGS… (argv starts at the command's name) */
    char **args = calloc((size_t)argc + 4, sizeof *args);
    if (!args) {
        cli_error("out of memory");
        return EXIT_TROUBLE;
    }
    size_t n = 0;
    args[n++] = "errata-serve";
    args[n++] = argv[0];
    if (common->db_path) {
        args[n++] = "--db";
        args[n++] = (char *)common->db_path;
    }
    for (int i = 1; i < argc; i++)
        args[n++] = argv[i];
    args[n] = NULL;

    char path[PATH_MAX];
    if (beside_self(path, sizeof path) && access(path, X_OK) == 0)
        execv(path, args);
    execv(ERRATA_SERVE_PATH, args);
    int e = errno;
    cli_error("%s needs errata-serve, which was not found next to errata or at %s: %s",
              argv[0], ERRATA_SERVE_PATH, strerror(e));
    free(args);
    return EXIT_TROUBLE;
}

int cmd_serve(int argc, char **argv, cli_common *common)
{
    return run_server(argc, argv, common);
}

int cmd_mcp(int argc, char **argv, cli_common *common)
{
    return run_server(argc, argv, common);
}
