/*
 * render_labels.c — see render_labels.h.
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
                          "sources"};
static const labels RENDER_ZH = {"根本原因", "死胡同（不要尝试）", "解决方法（请尝试）", "失败原因",
                          "做法", "适用条件", "涉及的版本", "操作系统说明", "文档", "可信度",
                          "常见后续错误", "常见前序错误", "常被混淆", "其他匹配",
                          "没有匹配的已知错误。", "失败率", "成功率",
                          "评分", "猜测：没有记录的模式匹配你的文本，但以下记录与其用词相同（是猜测，并非匹配）：", "详情",
                          "避免", "尝试",
                          "未对照你的版本检查：提供锁文件或依赖清单（--env 文件）即可检查。",
                          "这是 %s（第 %zu 行，你的文本中也有）的原因。\n",
                          "来源"};


const labels *render_labels(errata_lang lang) { return lang == ERRATA_LANG_ZH ? &RENDER_ZH : &RENDER_EN; }
