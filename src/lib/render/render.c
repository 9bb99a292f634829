/*
 * render.c — errata_result_render() and errata_record_render(): the one public way to choose an
 * output format, dispatching to the format's own file.
 */
#include "render.h"

char *errata_result_render(const errata_result *res, errata_format fmt,
                           const errata_render_options *opts)
{
    switch (fmt) {
    case ERRATA_FORMAT_TEXT: return render_result_text(res, opts);
    case ERRATA_FORMAT_JSON: return render_result_json(res, opts);
    case ERRATA_FORMAT_MARKDOWN: return render_result_markdown(res, opts);
    case ERRATA_FORMAT_HTML: return render_result_html(res, opts);
    case ERRATA_FORMAT_SARIF:
    case ERRATA_FORMAT_JSONL:
    case ERRATA_FORMAT_GITHUB: break;
    }
    return NULL;
}

char *errata_record_render(const errata_record *r, errata_format fmt,
                           const errata_render_options *opts)
{
    switch (fmt) {
    case ERRATA_FORMAT_TEXT: return render_record_text(r, opts);
    case ERRATA_FORMAT_JSON: return render_record_json(r);
    case ERRATA_FORMAT_MARKDOWN: return render_record_markdown(r, opts);
    case ERRATA_FORMAT_HTML: return render_record_html(r, opts);
    case ERRATA_FORMAT_SARIF:
    case ERRATA_FORMAT_JSONL:
    case ERRATA_FORMAT_GITHUB: break;
    }
    return NULL;
}
