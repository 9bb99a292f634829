/*
 * gen_cli_docs.c — one source for every option, as curl's docs/cmdline-opts: each command is
 * described once, in docs/cmdline/COMMAND.md, and this build-time tool writes from those files
 * the three places a user reads them:
 *
 *   gen_cli_docs help OUT.c  FILE.md…   each command's --help text, as C strings
 *   gen_cli_docs md   OUT.md INTRO.md FILE.md…   docs/cli.md
 *   gen_cli_docs man  OUT.1  INTRO.md FILE.md…   docs/man/errata.1
 *
 * A command file is: "# USAGE", description paragraphs, "## Options" with each option on a
 * line of its own ("--limit N", "-o, --output FILE") followed by ": meaning" lines, "## Notes"
 * (paragraphs --help ends with), and "## Manual" (Markdown that only the manual pages carry).
 * The format is strict on purpose: a line this tool does not expect stops the build, naming
 * the file and line, rather than dropping text from the help.
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HELP_WIDTH 92
#define MAX_OPTS 32

typedef struct {
    char *name;    /* "--limit N" */
    char *meaning; /* one line */
} option;

typedef struct {
    const char *path;
    char command[64]; /* "lookup" */
    char *usage;      /* "lookup [OPTIONS] [TEXT... | -]" */
    char *description, *notes, *manual; /* text as written, lines kept */
    option opts[MAX_OPTS];
    size_t n_opts;
} command_doc;

static void die(const char *path, int line, const char *msg)
{
    fprintf(stderr, "gen_cli_docs: %s:%d: %s\n", path, line, msg);
    exit(1);
}

static char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        die(path, 0, "cannot open");
    /* A plain growing buffer rather than open_memstream: GCC 12 at -O3 takes the pointer
     * open_memstream fills for one into a dead stack slot (-Wdangling-pointer), which breaks
     * a release build under -Werror. */
    size_t len = 0, cap = 4096;
    char *buf = malloc(cap);
    if (!buf)
        die(path, 0, "out of memory");
    size_t got;
    while ((got = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += got;
        if (cap - len - 1 == 0) {
            char *p = realloc(buf, cap *= 2);
            if (!p)
                die(path, 0, "out of memory");
            buf = p;
        }
    }
    if (ferror(f))
        die(path, 0, "cannot read");
    fclose(f);
    buf[len] = '\0';
    return buf;
}

/* Appends a line to *text (malloc'd, grows). */
static void add_line(char **text, const char *line)
{
    size_t old = *text ? strlen(*text) : 0, n = strlen(line);
    char *p = realloc(*text, old + n + 2);
    if (!p)
        die("", 0, "out of memory");
    memcpy(p + old, line, n);
    p[old + n] = '\n';
    p[old + n + 1] = '\0';
    *text = p;
}

/* Drops leading and trailing blank lines. */
static char *trim_blank_lines(char *t)
{
    if (!t)
        return strdup("");
    char *s = t;
    while (*s == '\n')
        s++;
    size_t n = strlen(s);
    while (n && s[n - 1] == '\n')
        n--;
    char *out = strndup(s, n);
    free(t);
    return out;
}

/* Reads one command file into d; stops the build on a line the format does not allow. */
static void parse(const char *path, command_doc *d)
{
    memset(d, 0, sizeof *d);
    d->path = path;
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    snprintf(d->command, sizeof d->command, "%.*s", (int)strcspn(base, "."), base);
    char *text = read_all(path);
    enum { DESC, OPTS, NOTES, MANUAL } part = DESC;
    bool in_code = false;
    int lineno = 0;
    for (char *line = text, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        if (++lineno == 1) {
            if (strncmp(line, "# ", 2) != 0)
                die(path, 1, "the first line must be '# USAGE'");
            d->usage = strdup(line + 2);
            continue;
        }
        if (strncmp(line, "```", 3) == 0)
            in_code = !in_code;
        if (!in_code && line[0] == '#') {
            if (strcmp(line, "## Options") == 0)
                part = OPTS;
            else if (strcmp(line, "## Notes") == 0)
                part = NOTES;
            else if (strcmp(line, "## Manual") == 0)
                part = MANUAL;
            else
                die(path, lineno, "unknown heading: want ## Options, ## Notes or ## Manual");
            continue;
        }
        switch (part) {
        case DESC: add_line(&d->description, line); break;
        case NOTES: add_line(&d->notes, line); break;
        case MANUAL: add_line(&d->manual, line); break;
        case OPTS:
            if (!*line)
                break;
            if (line[0] == '-') {
                if (d->n_opts == MAX_OPTS)
                    die(path, lineno, "too many options");
                d->opts[d->n_opts++].name = strdup(line);
            } else if (strncmp(line, ": ", 2) == 0 && d->n_opts && !d->opts[d->n_opts - 1].meaning) {
                d->opts[d->n_opts - 1].meaning = strdup(line + 2);
            } else {
                die(path, lineno, "in ## Options, want an option line ('--name ARG') followed by "
                                  "one ': meaning' line");
            }
            break;
        }
    }
    free(text);
    if (!d->usage)
        die(path, 1, "empty file");
    for (size_t i = 0; i < d->n_opts; i++)
        if (!d->opts[i].meaning)
            die(path, 0, "an option without its ': meaning' line");
    d->description = trim_blank_lines(d->description);
    d->notes = trim_blank_lines(d->notes);
    d->manual = trim_blank_lines(d->manual);
}

/* ------------------------------------------------------------------ --help */

static void c_string(FILE *out, const char *s)
{
    fputs("    \"", out);
    for (; *s; s++) {
        if (*s == '\n') {
            fputs(s[1] ? "\\n\"\n    \"" : "\\n", out);
            continue;
        }
        if (*s == '"' || *s == '\\')
            fputc('\\', out);
        fputc(*s, out);
    }
    fputs("\"", out);
}

/* Writes meaning word-wrapped into lines of HELP_WIDTH, the first after the option column. */
static void wrap(FILE *m, const char *meaning, size_t indent)
{
    size_t col = indent;
    const char *w = meaning;
    bool first = true;
    while (*w) {
        size_t n = strcspn(w, " ");
        if (!first && col + 1 + n > HELP_WIDTH) {
            fprintf(m, "\n%*s", (int)indent, "");
            col = indent;
            first = true;
        }
        if (!first) {
            fputc(' ', m);
            col++;
        }
        fprintf(m, "%.*s", (int)n, w);
        col += n;
        first = false;
        w += n;
        while (*w == ' ')
            w++;
    }
    fputc('\n', m);
}

static char *help_text(const command_doc *d)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    fprintf(m, "Usage: errata %s\n\n%s\n", d->usage, d->description);
    if (d->n_opts) {
        size_t w = 15;
        for (size_t i = 0; i < d->n_opts; i++)
            if (strlen(d->opts[i].name) > w)
                w = strlen(d->opts[i].name);
        fputs("\nOptions:\n", m);
        for (size_t i = 0; i < d->n_opts; i++) {
            fprintf(m, "  %-*s  ", (int)w, d->opts[i].name);
            wrap(m, d->opts[i].meaning, w + 4);
        }
    }
    if (*d->notes)
        fprintf(m, "\n%s\n", d->notes);
    fclose(m);
    return buf;
}

static void write_help(FILE *out, command_doc *docs, size_t n)
{
    fputs("/* Generated by gen_cli_docs from docs/cmdline/: edit those files, not this one. */\n"
          "#include \"cli_help.h\"\n\n",
          out);
    for (size_t i = 0; i < n; i++) {
        char *h = help_text(&docs[i]);
        fprintf(out, "const char CLI_HELP_%s[] =\n", docs[i].command);
        c_string(out, h);
        fputs(";\n\n", out);
        free(h);
    }
}

/* ------------------------------------------------------------------ docs/cli.md */

static void md_cell(FILE *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '|')
            fputc('\\', out);
        fputc(*s, out);
    }
}

/* Joins a paragraph's lines the way Markdown reads them: the source's line breaks stay. */
static void write_md(FILE *out, const char *intro, command_doc *docs, size_t n)
{
    fputs("<!-- Generated by gen_cli_docs from docs/cmdline/: edit those files, then run "
          "scripts/gen-cli-docs. -->\n",
          out);
    fputs(intro, out);
    for (size_t i = 0; i < n; i++) {
        const command_doc *d = &docs[i];
        fprintf(out, "\n## errata %s\n\n%s\n", d->usage, d->description);
        if (d->n_opts) {
            fputs("\n| option | meaning |\n|---|---|\n", out);
            for (size_t k = 0; k < d->n_opts; k++) {
                fputs("| `", out);
                md_cell(out, d->opts[k].name);
                fputs("` | ", out);
                md_cell(out, d->opts[k].meaning);
                fputs(" |\n", out);
            }
        }
        if (*d->notes)
            fprintf(out, "\n%s\n", d->notes);
        if (*d->manual)
            fprintf(out, "\n%s\n", d->manual);
    }
}

/* ------------------------------------------------------------------ docs/man/errata.1 */

/* Text with Markdown's `code`, **bold** and [link](url) as roff fonts, roff's specials escaped. */
static void roff_inline(FILE *out, const char *s)
{
    bool code = false, bold = false;
    for (; *s; s++) {
        if (*s == '`') {
            fputs(code ? "\\fR" : "\\fB", out);
            code = !code;
        } else if (s[0] == '*' && s[1] == '*' && !code) {
            fputs(bold ? "\\fR" : "\\fB", out);
            bold = !bold;
            s++;
        } else if (*s == '[' && !code && strstr(s, "](")) {
            const char *close = strstr(s, "](");
            const char *end = strchr(close, ')');
            if (!end) {
                fputc('[', out);
                continue;
            }
            fprintf(out, "%.*s", (int)(close - s - 1), s + 1);
            s = end;
        } else if (*s == '\\') {
            fputs("\\e", out);
        } else if (*s == '-') {
            fputs("\\-", out);
        } else {
            fputc(*s, out);
        }
    }
}

static void roff_text(FILE *out, const char *text)
{
    bool in_code = false, para_open = false;
    const char *line = text;
    while (*line) {
        size_t n = strcspn(line, "\n");
        char *l = strndup(line, n);
        if (strncmp(l, "```", 3) == 0) {
            fputs(in_code ? ".fi\n.RE\n" : ".PP\n.RS\n.nf\n", out);
            in_code = !in_code;
            para_open = false;
        } else if (!in_code && !*l) {
            para_open = false;
        } else {
            if (!in_code && !para_open) {
                fputs(".PP\n", out);
                para_open = true;
            }
            if (l[0] == '.' || l[0] == '\'')
                fputs("\\&", out);
            if (in_code) {
                for (const char *c = l; *c; c++)
                    fputs(*c == '\\' ? "\\e" : *c == '-' ? "\\-" : (char[2]){*c, 0}, out);
            } else {
                roff_inline(out, l);
            }
            fputc('\n', out);
        }
        free(l);
        line += n;
        if (*line)
            line++;
    }
}

static void write_man(FILE *out, const char *intro, command_doc *docs, size_t n)
{
    fputs(".\\\" Generated by gen_cli_docs from docs/cmdline/: edit those files, then run\n"
          ".\\\" scripts/gen-cli-docs.\n"
          ".TH ERRATA 1 \"\" \"errata\" \"User Commands\"\n"
          ".SH NAME\n"
          "errata \\- find the known failure in error text: root cause, what not to try, what "
          "works\n"
          ".SH SYNOPSIS\n"
          ".B errata\n"
          "[\\fB\\-\\-db\\fR \\fIFILE\\fR] \\fICOMMAND\\fR [\\fIOPTIONS\\fR] [\\fIARGS\\fR]\n"
          ".SH DESCRIPTION\n",
          out);
    /* The intro without its title and synopsis block. */
    const char *body = strstr(intro, "```\n\n");
    body = body ? body + 5 : intro;
    roff_text(out, body);
    fputs(".SH COMMANDS\n", out);
    for (size_t i = 0; i < n; i++) {
        const command_doc *d = &docs[i];
        fputs(".SS \"errata ", out);
        roff_inline(out, d->usage);
        fputs("\"\n", out);
        roff_text(out, d->description);
        for (size_t k = 0; k < d->n_opts; k++) {
            fputs(".TP\n\\fB", out);
            roff_inline(out, d->opts[k].name);
            fputs("\\fR\n", out);
            roff_inline(out, d->opts[k].meaning);
            fputc('\n', out);
        }
        roff_text(out, d->notes);
        roff_text(out, d->manual);
    }
    fputs(".SH SEE ALSO\n"
          "docs/cli.md, docs/format.md, docs/json-output.md, docs/http-api.md, docs/limits.md in "
          "the source tree.\n",
          out);
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: gen_cli_docs help|md|man OUT [INTRO.md] FILE.md...\n");
        return 2;
    }
    const char *mode = argv[1], *outpath = argv[2];
    bool with_intro = strcmp(mode, "help") != 0;
    int first = with_intro ? 4 : 3;
    if (first > argc)
        die(outpath, 0, "no command files given");
    size_t n = (size_t)(argc - first);
    command_doc *docs = calloc(n, sizeof *docs);
    for (size_t i = 0; i < n; i++)
        parse(argv[first + (int)i], &docs[i]);
    FILE *out = fopen(outpath, "w");
    if (!out)
        die(outpath, 0, "cannot write");
    if (strcmp(mode, "help") == 0) {
        write_help(out, docs, n);
    } else {
        char *intro = read_all(argv[3]);
        if (strcmp(mode, "md") == 0)
            write_md(out, intro, docs, n);
        else if (strcmp(mode, "man") == 0)
            write_man(out, intro, docs, n);
        else
            die(mode, 0, "the mode is help, md or man");
        free(intro);
    }
    return fclose(out) == 0 ? 0 : 1;
}
