/*
 * fuzz_mcp.c — the MCP server's JSON-RPC core (mcp_handle, shared by the stdio and Streamable
 * HTTP transports) on any bytes as one message, answered from the small index: parsing,
 * batches, every method and every tool with whatever arguments an agent sends. An agent's
 * messages are untrusted, so none may crash, leak or reach undefined behaviour.
 *
 * The bytes are handed over NUL-terminated after their length, as both transports hand them.
 * Properties: an answer, when there is one, is JSON on one line (stdio frames by newline).
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "mcp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_cstring(data, size);
    char *answer = mcp_handle(fuzz_db(), text, size);
    if (answer) {
        if (strchr(answer, '\n'))
            fuzz_fail("the answer spans lines: %.200s", answer);
        json_error_t je;
        json_t *j = json_loads(answer, 0, &je);
        if (!j)
            fuzz_fail("the answer is not JSON (%s): %.200s", je.text, answer);
        json_decref(j);
        free(answer);
    }
    free(text);
    return 0;
}
