/*
 * cli_help.h — each command's --help text, generated at build time from docs/cmdline/COMMAND.md
 * by gen_cli_docs (the same files docs/cli.md and the man page are generated from).
 */
#ifndef ERRATA_CLI_HELP_H
#define ERRATA_CLI_HELP_H

extern const char CLI_HELP_lookup[];
extern const char CLI_HELP_scan[];
extern const char CLI_HELP_run[];
extern const char CLI_HELP_search[];
extern const char CLI_HELP_show[];
extern const char CLI_HELP_check[];
extern const char CLI_HELP_validate[];
extern const char CLI_HELP_verify[];
extern const char CLI_HELP_build[];
extern const char CLI_HELP_serve[];
extern const char CLI_HELP_mcp[];

#endif
