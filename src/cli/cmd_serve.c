/*
 * cmd_serve.c — `errata serve` (HTTP API, MCP over HTTP, web pages) and `errata mcp` (MCP over
 * stdio): both open the index and hand over to src/server.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "mcp.h"
#include "daemon.h"

static const char SERVE_HELP[] =
    "Usage: errata serve [OPTIONS]\n\n"
    "Serves the JSON API (/api/v1/…), MCP over Streamable HTTP (/mcp) and the web pages (/)\n"
    "from one process, until SIGTERM or SIGINT (docs/http-api.md).\n\n"
    "Options:\n"
    "  --listen HOST:PORT  address to bind (default 127.0.0.1:8080; port 0 picks a free one)\n"
    "  --threads N         worker threads (default: one per CPU)\n"
    "  --max-body BYTES    largest request body (default 1048576)\n"
    "  --allow-host NAME   also answer requests whose Host or Origin names NAME (repeatable;\n"
    "                      '*' for any). By default only the loopback names and the --listen\n"
    "                      host are answered, so a web page cannot reach the server through\n"
    "                      a name it points at this machine (DNS rebinding)\n"
    "  --db FILE           the index\n\n"
    "Prints 'errata: serving on http://HOST:PORT' on stderr when ready.\n"
    "Exit status: 0 stopped cleanly, 2 could not start.\n";

static const char MCP_HELP[] =
    "Usage: errata mcp [--db FILE]\n\n"
    "Speaks the Model Context Protocol over stdio: JSON-RPC 2.0, one message per line\n"
    "(docs/http-api.md, \"MCP\"). Tools: lookup_error, batch_lookup, get_error_detail,\n"
    "search_errors, list_error_domains, list_errors_by_domain, get_domain_stats,\n"
    "get_error_chain, check_environment.\n\n"
    "Exit status: 0 when stdin ends, 2 when the index cannot be opened.\n";

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

int cmd_serve(int argc, char **argv, cli_common *common)
{
    static const struct option longopts[] = {CLI_COMMON_LONGOPTS,
                                             {"listen", required_argument, NULL, 'l'},
                                             {"threads", required_argument, NULL, 't'},
                                             {"max-body", required_argument, NULL, 'b'},
                                             {"allow-host", required_argument, NULL, 'a'},
                                             {NULL, 0, NULL, 0}};
    static char host[256];
    static const char *allow[32];
    server_config cfg = {"127.0.0.1", 8080, 0, 1024 * 1024, allow, 0};
    int opt, status = -1;
    optind = 1;
    while ((opt = cli_getopt(argc, argv, "h", longopts, common, NULL, SERVE_HELP, &status)) !=
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
            v = strtoull(optarg, &end, 10);
            if (*end || v == 0 || optarg[0] == '-' || (opt == 't' && v > 256)) {
                cli_error("--%s takes a positive whole number%s, not '%s'",
                          opt == 't' ? "threads" : "max-body", opt == 't' ? " up to 256" : "",
                          optarg);
                return EXIT_TROUBLE;
            }
            if (opt == 't')
                cfg.threads = (unsigned)v;
            else
                cfg.max_body = (size_t)v;
            break;
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

int cmd_mcp(int argc, char **argv, cli_common *common)
{
    static const struct option longopts[] = {CLI_COMMON_LONGOPTS, {NULL, 0, NULL, 0}};
    int status = -1;
    optind = 1;
    while (cli_getopt(argc, argv, "h", longopts, common, NULL, MCP_HELP, &status) != -1)
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
