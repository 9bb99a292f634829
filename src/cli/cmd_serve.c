/*
 * cmd_serve.c — `errata serve` (HTTP API, MCP over HTTP, web pages) and `errata mcp` (MCP over
 * stdio): both open the index and hand over to src/server. Linked into errata-serve only; the
 * errata command runs that program for them (cmd_server_exec.c).
 */
#include <getopt.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_help.h"
#include "mcp.h"
#include "daemon.h"

static bool parse_listen(const char *arg, server_config *cfg, char *host, size_t host_size)
{
    const char *colon = strrchr(arg, ':');
    if (!colon || colon == arg || (size_t)(colon - arg) >= host_size)
        return false;
    char *end;
    unsigned long port = strtoul(colon + 1, &end, 10);
    if (*end || colon[1] == '\0' || port > 65535)
        return false;
    memcpy(host, arg, (size_t)(colon - arg));
    host[colon - arg] = '\0';
    cfg->host = host;
    cfg->port = (uint16_t)port;
    return true;
}

int cmd_serve_main(int argc, char **argv, cli_common *common)
{
    static const struct option longopts[] = {CLI_COMMON_LONGOPTS,
                                             {"listen", required_argument, NULL, 'l'},
                                             {"threads", required_argument, NULL, 't'},
                                             {"max-body", required_argument, NULL, 'b'},
                                             {"allow-host", required_argument, NULL, 'a'},
                                             {"header-timeout", required_argument, NULL, 'H'},
                                             {"max-client-connections", required_argument,
                                              NULL, 'M'},
                                             {NULL, 0, NULL, 0}};
    static char host[256];
    static const char *allow[32];
    server_config cfg = {.host = "127.0.0.1", .port = 8080, .max_body = 1024 * 1024,
                         .allow_hosts = allow};
    int opt, status = -1;
    optind = 1;
    while ((opt = cli_getopt(argc, argv, "h", longopts, common, NULL, CLI_HELP_serve, &status)) !=
           -1) {
        char *end;
        unsigned long long v;
        switch (opt) {
        case 'a':
            if (cfg.n_allow_hosts == sizeof allow / sizeof *allow || !*optarg) {
                cli_error("--allow-host takes a host name, at most %zu times",
                          sizeof allow / sizeof *allow);
                return EXIT_TROUBLE;
            }
            allow[cfg.n_allow_hosts++] = optarg;
            break;
        case 'l':
            if (!parse_listen(optarg, &cfg, host, sizeof host)) {
                cli_error("--listen takes HOST:PORT (e.g. 127.0.0.1:8080), not '%s'", optarg);
                return EXIT_TROUBLE;
            }
            break;
        case 't':
        case 'b':
        case 'H':
        case 'M': {
            const char *name = opt == 't'   ? "threads"
                               : opt == 'b' ? "max-body"
                               : opt == 'H' ? "header-timeout"
                                            : "max-client-connections";
            unsigned long long max = opt == 't' ? 256 : opt == 'b' ? SIZE_MAX : 65535;
            v = strtoull(optarg, &end, 10);
            if (*end || v == 0 || optarg[0] == '-' || v > max) {
                if (opt == 'b')
                    cli_error("--max-body takes a positive whole number of bytes, not '%s'",
                              optarg);
                else
                    cli_error("--%s takes a whole number from 1 to %llu, not '%s'", name, max,
                              optarg);
                return EXIT_TROUBLE;
            }
            if (opt == 't')
                cfg.threads = (unsigned)v;
            else if (opt == 'b')
                cfg.max_body = (size_t)v;
            else if (opt == 'H')
                cfg.header_timeout_s = (unsigned)v;
            else
                cfg.max_client_connections = (unsigned)v;
            break;
        }
        }
    }
    if (status >= 0)
        return status;
    if (optind < argc) {
        cli_error("serve takes no arguments (see errata serve --help)");
        return EXIT_TROUBLE;
    }
    errata_db *db = cli_open_db(common);
    if (!db)
        return EXIT_TROUBLE;
    status = server_run(db, &cfg) == 0 ? EXIT_MATCH : EXIT_TROUBLE;
    errata_close(db);
    return status;
}

int cmd_mcp_main(int argc, char **argv, cli_common *common)
{
    static const struct option longopts[] = {CLI_COMMON_LONGOPTS, {NULL, 0, NULL, 0}};
    int status = -1;
    optind = 1;
    while (cli_getopt(argc, argv, "h", longopts, common, NULL, CLI_HELP_mcp, &status) != -1)
        ;
    if (status >= 0)
        return status;
    errata_db *db = cli_open_db(common);
    if (!db)
        return EXIT_TROUBLE;
    mcp_stdio(db, stdin, stdout);
    errata_close(db);
    return EXIT_MATCH;
}
