/*
 * shell_snippets.c INDEX OUT_DIR — writes every workaround command a reader could paste, as the
 * answer shows it, into OUT_DIR/<n>.sh, for test_shell_snippets.sh to parse with `bash -n`.
 *
 * For each record and each of its examples.match texts, the example is looked up and, when the
 * record answers it, each workaround's `how` is filled in with that example's captures (the text
 * the user would see). A `how` counts as a shell snippet when its first line that is not a
 * comment starts with a command word from the list below: `how` also holds Python, YAML or config
 * lines, which are not shell and are left alone. Each file starts with a comment naming the
 * record, the example and the workaround, so a failure says where to look.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errata.h"
#include "lookup.h"
#include "placeholder.h"
#include "record.h"

static const char *const COMMANDS[] = {
    "apt",      "apt-get", "sudo",    "pip",     "pip3",     "python3",    "python",  "npm",
    "npx",      "yarn",    "pnpm",    "git",     "docker",   "kubectl",    "helm",    "ss",
    "lsof",     "find",    "grep",    "sed",     "awk",      "export",     "cd",      "ls",
    "rm",       "mkdir",   "chmod",   "chown",   "systemctl", "journalctl", "make",   "cmake",
    "gcc",      "g++",     "clang",   "cargo",   "rustup",   "go",         "mvn",     "gradle",
    "./gradlew", "java",   "javac",   "node",    "curl",     "wget",       "openssl", "ssh",
    "ssh-keygen", "ssh-add", "tar",   "unzip",   "ulimit",   "kill",       "ps",      "df",
    "du",       "ln",      "cp",      "mv",      "echo",     "printf",     "cat",     "terraform",
    "ansible",  "ansible-playbook", "nginx", "psql", "mysql",  "redis-cli",  "sqlite3", "brew",
    "conda",    "poetry",  "uv",      "pipx",    "pytest",   "mypy",       "gem",     "bundle",
    "composer", "php",     "perl",    "cpan",    "dotnet",   "nvidia-smi", "pkg-config", "ldd",
    "valgrind", "gdb",     "meson",   "ninja",   "autoreconf", "./configure", "env",  "unset",
    "source",   ".",       "set",     "which",   "command",  "type",       "touch",   "tee",
    NULL};

static bool starts_with_command(const char *how)
{
    const char *line = how;
    while (*line) {
        while (*line == ' ' || *line == '\t')
            line++;
        if (*line == '#' || *line == '\n') { /* a comment or a blank line: look further */
            line += strcspn(line, "\n");
            line += *line == '\n';
            continue;
        }
        size_t word = strcspn(line, " \t\n;|&");
        /* "df = pd.read_csv(…)" is Python: a shell assignment has no space before its "=". */
        const char *after = line + word;
        while (*after == ' ' || *after == '\t')
            after++;
        if (after > line + word && *after == '=' && after[1] != '=')
            return false;
        /* "export function f() {" is JavaScript: the shell's export takes names. */
        static const char *const JS_AFTER_EXPORT[] = {"function", "default", "const", "class",
                                                      "let", "var", "async", "{", NULL};
        for (size_t i = 0; word == 6 && strncmp(line, "export", 6) == 0 && JS_AFTER_EXPORT[i]; i++)
            if (strncmp(after, JS_AFTER_EXPORT[i], strlen(JS_AFTER_EXPORT[i])) == 0)
                return false;
        for (size_t i = 0; COMMANDS[i]; i++)
            if (strlen(COMMANDS[i]) == word && strncmp(line, COMMANDS[i], word) == 0)
                return true;
        return false;
    }
    return false;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: shell_snippets INDEX OUT_DIR\n");
        return 2;
    }
    errata_db *db = NULL;
    errata_error err = {0};
    if (errata_open(argv[1], &db, &err) != ERRATA_OK) {
        fprintf(stderr, "shell_snippets: %s\n", err.message);
        return 2;
    }
    size_t written = 0;
    for (size_t i = 0; i < errata_db_record_count(db); i++) {
        const errata_record *r = NULL;
        if (errata_record_at(db, i, &r, &err) != ERRATA_OK) {
            fprintf(stderr, "shell_snippets: %s\n", err.message);
            return 2;
        }
        for (size_t e = 0; e < r->examples_match.n; e++) {
            const char *text = r->examples_match.v[e];
            errata_lookup_options lo = {.max_results = 20};
            errata_result *res = NULL;
            if (errata_lookup(db, text, strlen(text), &lo, &res, &err) != ERRATA_OK)
                continue;
            const errata_match *m = NULL;
            for (size_t k = 0; k < errata_result_count(res) && !m; k++)
                if (!res->m[k].fuzzy && strcmp(res->m[k].rec->id, r->id) == 0)
                    m = &res->m[k];
            for (size_t w = 0; m && w < r->n_workarounds; w++) {
                if (!starts_with_command(r->workarounds[w].how))
                    continue;
                char *filled = fill_placeholders(r->workarounds[w].how, m->caps, m->n_caps);
                char path[4096];
                snprintf(path, sizeof path, "%s/%zu.sh", argv[2], ++written);
                FILE *f = fopen(path, "w");
                if (!f) {
                    perror(path);
                    return 2;
                }
                fprintf(f, "# %s examples.match[%zu] workarounds[%zu].how\n%s\n", r->id, e, w,
                        filled ? filled : r->workarounds[w].how);
                fclose(f);
                free(filled);
            }
            errata_result_free(res);
        }
    }
    errata_close(db);
    printf("%zu\n", written);
    return 0;
}
