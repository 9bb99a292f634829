/*
 * assets.h — files compiled into the binary by src/server/embed.c (see meson.build).
 */
#ifndef ERRATA_ASSETS_H
#define ERRATA_ASSETS_H

#include <stddef.h>

extern const unsigned char asset_style_css[];
extern const size_t asset_style_css_len;
extern const unsigned char asset_app_js[];
extern const size_t asset_app_js_len;
extern const unsigned char asset_openapi_json[];
extern const size_t asset_openapi_json_len;
extern const unsigned char asset_mcp_tools_json[];
extern const size_t asset_mcp_tools_json_len;
extern const unsigned char asset_mcp_resources_json[];
extern const size_t asset_mcp_resources_json_len;
extern const unsigned char asset_mcp_prompts_json[];
extern const size_t asset_mcp_prompts_json_len;

#endif
