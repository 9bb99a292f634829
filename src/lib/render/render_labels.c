/*
 * render_labels.c — see render_labels.h; and the web pages' own words (errata_web_words), kept
 * here so that every word Errata shows in a language is in one file.
 */
#include "render_labels.h"

static const labels RENDER_EN = {"Root cause", "Dead ends (do not try)", "Workarounds (try these)",
                          "why it fails", "how", "when", "Versions concerned", "OS notes", "Docs",
                          "Trust", "Often leads to", "Often preceded by", "Often confused with",
                          "Also matched", "No known error matched.",
                          "fails", "works", "Score",
                          "Guesses: no record's pattern matched your text, but these records share its words\n"
                          "(a guess, not a match):",
                          "details", "AVOID", "TRY",
                          "Not checked against your versions: give your lock file or requirements "
                          "(--env FILE) to check.",
                          "This is the cause of %s (line %zu), which your text also shows.\n",
                          "sources",
                          "Open the record page", "Matched line %zu", "Records that contain these words:",
                          "No record contains these words.", "The chain of errors",
                          "confidence", "fix rate", "resolvable",
                          "%zu known error%s can happen with the versions in this environment "
                          "(%zu package%s):\n",
                          "No known error depends on the versions in this environment (%zu "
                          "package%s).\n",
                          "because", "first try"};
static const labels RENDER_ZH = {"根本原因", "死胡同（不要尝试）", "解决方法（请尝试）", "失败原因",
                          "做法", "适用条件", "涉及的版本", "操作系统说明", "文档", "可信度",
                          "常见后续错误", "常见前序错误", "常被混淆", "其他匹配",
                          "没有匹配的已知错误。", "失败率", "成功率",
                          "评分", "猜测：没有记录的模式匹配你的文本，但以下记录与其用词相同（是猜测，并非匹配）：", "详情",
                          "避免", "尝试",
                          "未对照你的版本检查：提供锁文件或依赖清单（--env 文件）即可检查。",
                          "这是 %s（第 %zu 行，你的文本中也有）的原因。\n",
                          "来源",
                          "打开记录页面", "匹配第 %zu 行", "包含这些词的记录：", "没有记录包含这些词。",
                          "错误链", "置信度", "修复率", "可解决",
                          "此环境中的版本可能出现 %zu%.0s 个已知错误（共 %zu%.0s 个包）：\n",
                          "此环境中的版本（共 %zu%.0s 个包）不涉及任何已知错误。\n",
                          "原因", "首先尝试"};

const labels *render_labels(errata_lang lang) { return lang == ERRATA_LANG_ZH ? &RENDER_ZH : &RENDER_EN; }

static const errata_page_words PAGE_EN = {
    .nav_lookup = "Look up",
    .nav_search = "Search",
    .nav_domains = "Domains",
    .lookup_title = "Look up an error",
    .lookup_heading = "What does this error mean?",
    .lookup_label = "Paste an error message, a stack trace or a whole log",
    .lookup_button = "Look up",
    .lookup_hint = "Ctrl+Enter looks it up too.",
    .search_title = "Search the records",
    .search_heading = "Search the records",
    .search_label = "Words from an error, a tool or a cause",
    .search_button = "Search",
    .no_match_search = "Search the records for some of its words instead:",
    .contribute_heading = "Know this error? Add a record",
    .contribute =
        "Errata knows a failure when a record describes it: one JSON file, "
        "<code>kb/&lt;domain&gt;/&lt;slug&gt;.json</code> in Errata's repository, in the record "
        "format that <code>docs/format.md</code> describes: the error's signature, a regex that "
        "matches it, its root cause, the dead ends people try and the workarounds that work, each "
        "with a source. Check the file with <code>errata validate</code>, then propose it to the "
        "repository.",
    .domains_title = "Domains",
    .not_found = "Not found",
    .footer = "Errata — known failures, what not to try, what works.",
    .api = "API",
    .other_lang = "中文",
    .other_lang_code = "zh",
};

static const errata_page_words PAGE_ZH = {
    .nav_lookup = "查询",
    .nav_search = "搜索",
    .nav_domains = "领域",
    .lookup_title = "查询错误",
    .lookup_heading = "这个错误是什么意思？",
    .lookup_label = "粘贴错误信息、堆栈跟踪或整个日志",
    .lookup_button = "查询",
    .lookup_hint = "也可以按 Ctrl+Enter 查询。",
    .search_title = "搜索记录",
    .search_heading = "搜索记录",
    .search_label = "错误、工具或原因中的词",
    .search_button = "搜索",
    .no_match_search = "可以改为按其中的词搜索记录：",
    .contribute_heading = "了解这个错误？添加一条记录",
    .contribute =
        "Errata 通过记录认识一个故障：Errata 仓库中的一个 JSON 文件 "
        "<code>kb/&lt;领域&gt;/&lt;名称&gt;.json</code>，格式见 <code>docs/format.md</code>："
        "错误的签名、匹配它的正则表达式、根本原因、人们常走的死胡同和有效的解决方法，每条都注明来源。"
        "用 <code>errata validate</code> 检查该文件，然后提交到仓库。",
    .domains_title = "领域",
    .not_found = "未找到",
    .footer = "Errata — 已知故障、不要尝试的做法、有效的做法。",
    .api = "API",
    .other_lang = "English",
    .other_lang_code = "en",
};

const errata_page_words *errata_web_words(errata_lang lang)
{
    return lang == ERRATA_LANG_ZH ? &PAGE_ZH : &PAGE_EN;
}
