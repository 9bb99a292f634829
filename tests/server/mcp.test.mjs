// MCP of Errata (docs/http-api.md) through the official TypeScript SDK client, over both
// transports: stdio (`errata mcp --db …`) and Streamable HTTP (`errata serve`, POST /mcp).
// For each: the 10 tools, their input schemas, annotations and output schemas, every tool called
// with valid arguments and its Markdown content and structuredContent checked (against the
// OpenAPI document and against the tool's own outputSchema), bad arguments, ping, the resources
// (every page of resources/list, records and domains read by URI, unknown URIs) and the prompts.
// Then the "Use from an agent" section of README.md: its mcpServers entry run as written, and
// its Streamable HTTP URL.
//
// Environment: ERRATA_BIN (default ../../build/errata), ERRATA_DB (default: an index built
// from ../../kb into a temporary directory), ERRATA_TEST_PIDS (a file to which the id of every
// process started here is appended, so that a runner can stop it whatever happens).
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { UriTemplate } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ROOT, BIN, SEED_TEXT, SEED_ID, notePid, ensureIndex, removeIndex, startServer, stopServer } from './harness.mjs';


const CHAIN_ID = 'python/modulenotfounderror-no-module-named';
const TRACE = `Traceback (most recent call last):
  File "/srv/app/main.py", line 3, in <module>
    import requests
ModuleNotFoundError: No module named 'requests'
`;

// The tools of docs/http-api.md: their arguments and which are required.
const TOOLS = {
  lookup_error: { props: ['lang', 'limit', 'text'], required: ['text'] },
  batch_lookup: { props: ['limit', 'texts'], required: ['texts'] },
  scan_log: { props: ['lang', 'log', 'source'], required: ['log'] },
  get_error_detail: { props: ['id', 'lang'], required: ['id'] },
  search_errors: { props: ['limit', 'query'], required: ['query'] },
  list_error_domains: { props: [], required: [] },
  list_errors_by_domain: { props: ['domain'], required: ['domain'] },
  get_domain_stats: { props: [], required: [] },
  get_error_chain: { props: ['depth', 'id'], required: ['id'] },
  check_environment: { props: ['files', 'packages'], required: [] },
};

// structuredContent is "the same answer as JSON" as the HTTP API's: checked against the
// schemas of docs/openapi.json.
const doc = JSON.parse(readFileSync(join(ROOT, 'docs/openapi.json'), 'utf8'));
const BASE = 'https://errata.invalid/openapi.json';
const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
ajv.addVocabulary(['openapi', 'info', 'servers', 'security', 'tags', 'paths', 'components', 'example']);
addFormats(ajv);
ajv.addSchema({ ...doc, $id: BASE });
function assertSchema(name, value) {
  const v = ajv.getSchema(`${BASE}#/components/schemas/${name}`);
  assert.ok(v(value), `structuredContent is not a ${name}: ${ajv.errorsText(v.errors)}\n${JSON.stringify(value).slice(0, 500)}`);
}

let db;

// A valid call of each tool, whose structuredContent is checked against the tool's outputSchema.
const VALID_CALLS = {
  lookup_error: { text: SEED_TEXT },
  batch_lookup: { texts: [SEED_TEXT, TRACE] },
  scan_log: { log: `step 1 ok\n${TRACE}step 2 ok\n`, source: 'ci.log' },
  get_error_detail: { id: SEED_ID },
  search_errors: { query: 'torch compile peft adapters' },
  list_error_domains: {},
  list_errors_by_domain: { domain: 'python' },
  get_domain_stats: {},
  get_error_chain: { id: CHAIN_ID },
  check_environment: { packages: { transformers: '4.40.0', peft: '0.10.0', torch: '2.3.0' } },
};

// Every property of a JSON Schema (nested in items and properties too), as [path, schema].
function* schemaProperties(schema, path = '') {
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    yield [`${path}${name}`, prop];
    yield* schemaProperties(prop, `${path}${name}.`);
    if (prop.items) yield* schemaProperties(prop.items, `${path}${name}[].`);
  }
}

// The words of text that look like tool names: snake_case words beginning as a tool's name
// begins (lookup_, get_, …), so that a misspelt tool is caught and a field such as
// preceded_by is not.
function toolLikeNames(text, names) {
  const verbs = new Set(names.map((n) => n.split('_')[0]));
  return [...text.matchAll(/\b([a-z]+(?:_[a-z]+)+)\b/g)].map((m) => m[1]).filter((w) => verbs.has(w.split('_')[0]));
}

// The SDK's error of a failed request: its JSON-RPC code.
async function rpcCode(promise) {
  try {
    await promise;
  } catch (e) {
    return e.code;
  }
  return 'no error';
}

const textOf = (res) => res.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');

// Calls a tool that must fail on its input: either a tool result with isError (what the
// contract asks for input failures) or a JSON-RPC error (acceptable for arguments that do not
// fit the input schema). Returns which it was.
async function expectToolFailure(client, name, args) {
  let res;
  try {
    res = await client.callTool({ name, arguments: args });
  } catch (e) {
    assert.ok(e.code === -32602 || e.code === -32600, `${name}(${JSON.stringify(args)}): unexpected error ${e.code} ${e.message}`);
    return 'rpc-error';
  }
  assert.equal(res.isError, true, `${name}(${JSON.stringify(args)}) should fail: ${JSON.stringify(res).slice(0, 300)}`);
  assert.ok(textOf(res).length > 0, 'an isError result says why');
  return 'isError';
}

function transportSuite(name, makeTransport) {
  describe(`MCP over ${name}`, () => {
    let client;
    let transport;

    before(async () => {
      transport = await makeTransport();
      client = new Client({ name: 'errata-mcp-test', version: '0.0.0' });
      await client.connect(transport);
    });

    after(async () => {
      await client?.close();
    });

    test('initialize: server info and the tools capability', () => {
      const caps = client.getServerCapabilities();
      assert.ok(caps?.tools, `capabilities: ${JSON.stringify(caps)}`);
      const info = client.getServerVersion();
      assert.ok(info?.name, `serverInfo: ${JSON.stringify(info)}`);
    });

    test('ping', async () => {
      const r = await client.ping();
      assert.deepEqual(r, {});
    });

    test('listTools: the 10 tools with their input schemas', async () => {
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((t) => t.name).sort(), Object.keys(TOOLS).sort());
      for (const t of tools) {
        const want = TOOLS[t.name];
        assert.ok(t.description && t.description.length > 10, `${t.name}: a description`);
        assert.equal(t.inputSchema?.type, 'object', `${t.name}: inputSchema.type`);
        assert.deepEqual(Object.keys(t.inputSchema.properties ?? {}).sort(), want.props, `${t.name}: arguments`);
        assert.deepEqual([...(t.inputSchema.required ?? [])].sort(), want.required, `${t.name}: required`);
        // the schema compiles
        new Ajv2020({ strict: false }).compile(t.inputSchema);
      }
      const by = Object.fromEntries(tools.map((t) => [t.name, t.inputSchema.properties]));
      assert.equal(by.lookup_error.text.type, 'string');
      assert.equal(by.lookup_error.limit.minimum, 1);
      assert.equal(by.lookup_error.limit.maximum, 20);
      assert.deepEqual([...by.lookup_error.lang.enum].sort(), ['en', 'zh']);
      assert.equal(by.batch_lookup.texts.type, 'array');
      assert.equal(by.batch_lookup.texts.items?.type, 'string');
      assert.equal(by.batch_lookup.texts.minItems, 1);
      assert.equal(by.batch_lookup.texts.maxItems, 50);
      assert.equal(by.get_error_chain.depth.minimum, 1);
      assert.equal(by.get_error_chain.depth.maximum, 5);
    });

    test('initialize: the resources and prompts capabilities', () => {
      const caps = client.getServerCapabilities();
      assert.ok(caps?.resources, `capabilities: ${JSON.stringify(caps)}`);
      assert.ok(caps?.prompts, `capabilities: ${JSON.stringify(caps)}`);
      assert.match(client.getInstructions() ?? '', /lookup_error/);
    });

    test('listTools: annotations, parameter descriptions and output schemas', async () => {
      const { tools } = await client.listTools();
      const names = tools.map((t) => t.name);
      for (const t of tools) {
        assert.deepEqual(t.annotations, {
          title: t.title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false,
        }, `${t.name}: annotations`);
        assert.ok(t.title, `${t.name}: a title`);
        // long enough to choose by, and says when to use it
        assert.ok(t.description.length >= 150, `${t.name}: a description a model can choose by: ${t.description}`);
        assert.match(t.description, /\buse\b/i, `${t.name}: says when to use it`);
        for (const [path, prop] of schemaProperties(t.inputSchema)) {
          assert.ok(typeof prop.description === 'string' && prop.description.length >= 10, `${t.name}: ${path} has no description`);
        }
        assert.equal(t.outputSchema?.type, 'object', `${t.name}: outputSchema`);
        // a standalone 2020-12 schema (no references out of it) that is not trivially permissive
        const v = new Ajv2020({ strict: true, allowUnionTypes: true }).compile(t.outputSchema);
        assert.equal(v({}), false, `${t.name}: outputSchema accepts {}`);
        assert.ok(!JSON.stringify(t.outputSchema).includes('#/components/'), `${t.name}: a reference out of the outputSchema`);
      }
      // the tools a description sends the model to exist
      for (const t of tools) {
        for (const other of toolLikeNames(t.description, names)) {
          assert.ok(names.includes(other), `${t.name}'s description names ${other}, not a tool`);
        }
      }
    });

    test("every tool's structuredContent validates against its outputSchema", async (t) => {
      const { tools } = await client.listTools();
      assert.deepEqual(Object.keys(VALID_CALLS).sort(), tools.map((x) => x.name).sort());
      for (const tool of tools) {
        await t.test(tool.name, async () => {
          const res = await client.callTool({ name: tool.name, arguments: VALID_CALLS[tool.name] });
          assert.notEqual(res.isError, true, textOf(res));
          assert.ok(textOf(res).length > 0, 'the text content is kept');
          const out = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
          addFormats(out);
          const v = out.compile(tool.outputSchema);
          assert.ok(v(res.structuredContent), `${tool.name}: ${JSON.stringify(v.errors)}`);
        });
      }
    });

    test('resources/list: every page, every record and domain exactly once', async () => {
      const stats = (await client.callTool({ name: 'get_domain_stats', arguments: {} })).structuredContent;
      const seen = new Map();
      let cursor;
      let pages = 0;
      do {
        const page = await client.listResources(cursor === undefined ? {} : { cursor });
        pages++;
        assert.ok(page.resources.length > 0, `page ${pages} is empty`);
        for (const r of page.resources) {
          assert.ok(!seen.has(r.uri), `${r.uri} listed twice`);
          assert.ok(r.name && r.mimeType, JSON.stringify(r));
          seen.set(r.uri, r);
        }
        cursor = page.nextCursor;
        assert.ok(pages <= 100, 'resources/list does not end');
      } while (cursor !== undefined);
      const records = [...seen.keys()].filter((u) => u.startsWith('errata://record/'));
      const domains = [...seen.keys()].filter((u) => u.startsWith('errata://domain/'));
      assert.equal(records.length, stats.records, 'every record once');
      assert.equal(domains.length, stats.domains, 'every domain once');
      assert.ok(pages > 1, `the ${seen.size} resources came in one page`);
      assert.ok(seen.has('errata://domains') && seen.has('errata://stats'));
      const seed = seen.get(`errata://record/${SEED_ID}`);
      assert.equal(seed?.mimeType, 'application/json');
      assert.equal(seed.name, SEED_ID);
      assert.equal(seed.title, SEED_TEXT);
      assert.equal(await rpcCode(client.listResources({ cursor: 'not-a-cursor' })), -32602);
      assert.equal(await rpcCode(client.listResources({ cursor: String(seen.size + 1) })), -32602);
    });

    test('resources/read: a record as JSON and as Markdown', async () => {
      const uri = `errata://record/${SEED_ID}`;
      const { contents } = await client.readResource({ uri });
      assert.equal(contents.length, 1);
      assert.equal(contents[0].uri, uri);
      assert.equal(contents[0].mimeType, 'application/json');
      const record = JSON.parse(contents[0].text);
      assert.equal(record.id, SEED_ID);
      assert.equal(record.signature, SEED_TEXT);
      assertSchema('Record', record);
      const md = (await client.readResource({ uri: `${uri}.md` })).contents[0];
      assert.equal(md.mimeType, 'text/markdown');
      assert.ok(md.text.includes(SEED_TEXT) && md.text.includes(SEED_ID), md.text.slice(0, 300));
    });

    test("resources/read: the domains and a domain's records", async () => {
      const domain = SEED_ID.split('/')[0];
      const all = JSON.parse((await client.readResource({ uri: 'errata://domains' })).contents[0].text);
      assertSchema('Domains', all);
      assert.ok(all.domains.some((d) => d.domain === domain && d.records > 0));
      const one = (await client.readResource({ uri: `errata://domain/${domain}` })).contents[0];
      assert.equal(one.mimeType, 'application/json');
      const list = JSON.parse(one.text);
      assertSchema('DomainRecords', list);
      assert.equal(list.domain, domain);
      assert.ok(list.records.some((r) => r.id === SEED_ID), `${SEED_ID} in errata://domain/${domain}`);
      assert.equal(list.records.length, all.domains.find((d) => d.domain === domain).records);
      const stats = JSON.parse((await client.readResource({ uri: 'errata://stats' })).contents[0].text);
      assertSchema('Stats', stats);
    });

    test('resources/templates/list: each template, filled in, reads', async () => {
      const { resourceTemplates } = await client.listResourceTemplates();
      assert.deepEqual(resourceTemplates.map((t) => t.uriTemplate).sort(), [
        'errata://domain/{domain}', 'errata://domain/{domain}.md',
        'errata://record/{domain}/{slug}', 'errata://record/{domain}/{slug}.md',
      ]);
      const [domain, slug] = SEED_ID.split('/');
      for (const t of resourceTemplates) {
        assert.ok(t.name && t.description, JSON.stringify(t));
        const uri = new UriTemplate(t.uriTemplate).expand({ domain, slug });
        const { contents } = await client.readResource({ uri });
        assert.equal(contents[0].mimeType, t.mimeType, uri);
        assert.ok(contents[0].text.includes(SEED_ID), uri);
      }
    });

    test('resources/read: an unknown URI is -32002', async () => {
      for (const uri of ['errata://record/python/no-such-record', 'errata://record/python/no-such-record.md',
        'errata://domain/no-such-domain', 'errata://nothing', 'errata://', 'https://example.com/x', '']) {
        let err;
        try {
          await client.readResource({ uri });
        } catch (e) {
          err = e;
        }
        assert.equal(err?.code, -32002, `${JSON.stringify(uri)}: ${err?.message}`);
        assert.deepEqual(err.data, { uri });
      }
    });

    test('prompts: diagnose_log and explain_error send the model to the tools', async () => {
      const { prompts } = await client.listPrompts();
      const { tools } = await client.listTools();
      const byName = Object.fromEntries(prompts.map((p) => [p.name, p]));
      assert.deepEqual(byName.diagnose_log.arguments.map((a) => [a.name, a.required]), [['log', true]]);
      assert.deepEqual(byName.explain_error.arguments.map((a) => [a.name, a.required]), [['error', true]]);
      for (const p of prompts) {
        assert.ok(p.title && p.description, p.name);
        for (const a of p.arguments ?? []) assert.ok(a.description, `${p.name}: ${a.name} has no description`);
        assert.equal(p.messages, undefined, 'prompts/list gives no messages');
      }
      const cases = [['diagnose_log', { log: TRACE }, TRACE], ['explain_error', { error: SEED_TEXT }, SEED_TEXT]];
      for (const [name, args, text] of cases) {
        const got = await client.getPrompt({ name, arguments: args });
        assert.equal(got.messages.length, 1);
        const [m] = got.messages;
        assert.equal(m.role, 'user');
        assert.equal(m.content.type, 'text');
        assert.ok(m.content.text.includes(text), `${name}: the argument is in the message`);
        assert.ok(!/\{(log|error)\}/.test(m.content.text), `${name}: a placeholder is left`);
        assert.match(m.content.text, /`lookup_error`/);
        // every tool a prompt names exists
        const names = tools.map((t) => t.name);
        for (const tool of toolLikeNames(m.content.text, names)) {
          assert.ok(names.includes(tool), `${name} names ${tool}, not a tool`);
        }
      }
      assert.equal(await rpcCode(client.getPrompt({ name: 'diagnose_log', arguments: {} })), -32602);
      assert.equal(await rpcCode(client.getPrompt({ name: 'no_such_prompt', arguments: {} })), -32602);
    });

    test('lookup_error on the seed text', async () => {
      const res = await client.callTool({ name: 'lookup_error', arguments: { text: SEED_TEXT } });
      assert.notEqual(res.isError, true, textOf(res));
      const md = textOf(res);
      assert.ok(md.includes(SEED_ID), md.slice(0, 500));
      assert.match(md, /TRY|workaround/i);
      assert.match(md, /AVOID|dead end/i);
      assert.equal(res.structuredContent.matches[0].id, SEED_ID);
      assert.equal(res.structuredContent.matched, true);
      assertSchema('LookupAnswer', res.structuredContent);
    });

    test('lookup_error with limit and lang zh', async () => {
      const res = await client.callTool({ name: 'lookup_error', arguments: { text: TRACE, limit: 1, lang: 'zh' } });
      assert.notEqual(res.isError, true, textOf(res));
      assert.equal(res.structuredContent.matches.length, 1);
      assert.equal(res.structuredContent.matches[0].id, CHAIN_ID);
      assert.match(textOf(res), /[\u4e00-\u9fff]/, 'Chinese text in the Markdown');
    });

    test('batch_lookup', async () => {
      const res = await client.callTool({ name: 'batch_lookup', arguments: { texts: [SEED_TEXT, TRACE], limit: 2 } });
      assert.notEqual(res.isError, true, textOf(res));
      const { results } = res.structuredContent;
      assert.equal(results.length, 2);
      assert.equal(results[0].matches[0].id, SEED_ID);
      assert.equal(results[1].matches[0].id, CHAIN_ID);
      for (const r of results) assert.ok(r.matches.length <= 2);
      assertSchema('BatchAnswer', res.structuredContent);
      const md = textOf(res);
      assert.ok(md.includes(SEED_ID) && md.includes(CHAIN_ID));
    });

    test('get_error_detail', async () => {
      const res = await client.callTool({ name: 'get_error_detail', arguments: { id: SEED_ID } });
      assert.notEqual(res.isError, true, textOf(res));
      assert.equal(res.structuredContent.id, SEED_ID);
      assertSchema('Record', res.structuredContent);
      assert.ok(textOf(res).includes(SEED_TEXT));
      const zh = await client.callTool({ name: 'get_error_detail', arguments: { id: SEED_ID, lang: 'zh' } });
      assert.notEqual(zh.isError, true, textOf(zh));
      assert.match(textOf(zh), /[\u4e00-\u9fff]/);
    });

    test('search_errors', async () => {
      const res = await client.callTool({ name: 'search_errors', arguments: { query: 'torch compile peft adapters', limit: 3 } });
      assert.notEqual(res.isError, true, textOf(res));
      const { matches } = res.structuredContent;
      assert.ok(matches.length >= 1 && matches.length <= 3);
      assert.ok(matches.some((m) => m.id === SEED_ID));
      for (const m of matches) assert.equal(m.match, 'fuzzy');
      assertSchema('LookupAnswer', res.structuredContent);
      assert.ok(textOf(res).includes(SEED_ID));
    });

    test('list_error_domains', async () => {
      const res = await client.callTool({ name: 'list_error_domains', arguments: {} });
      assert.notEqual(res.isError, true, textOf(res));
      assertSchema('Domains', res.structuredContent);
      const names = res.structuredContent.domains.map((d) => d.domain);
      assert.ok(names.includes('python'));
      assert.ok(textOf(res).includes('python'));
    });

    test('list_errors_by_domain', async () => {
      const res = await client.callTool({ name: 'list_errors_by_domain', arguments: { domain: 'python' } });
      assert.notEqual(res.isError, true, textOf(res));
      assertSchema('DomainRecords', res.structuredContent);
      assert.equal(res.structuredContent.domain, 'python');
      assert.ok(res.structuredContent.records.some((r) => r.id === CHAIN_ID));
      assert.ok(textOf(res).includes(CHAIN_ID));
    });

    test('scan_log: every failure of a log at its line, as Markdown and ScanAnswer', async () => {
      const log = `${'make[1]: building\n'.repeat(50)}${TRACE}${'ok\n'.repeat(20)}fatal: not a git repository (or any of the parent directories): .git\n`;
      const res = await client.callTool({ name: 'scan_log', arguments: { log, source: 'build.log' } });
      assert.notEqual(res.isError, true, textOf(res));
      assertSchema('ScanAnswer', res.structuredContent);
      assert.deepEqual(res.structuredContent.findings.map((f) => [f.match.id, f.line]),
        [[CHAIN_ID, 54], ['git/not-a-git-repository', 75]]);
      assert.equal(res.structuredContent.source, 'build.log');
      assert.match(textOf(res), /## Errata: 2 known failures in `build\.log`/);
      const empty = await client.callTool({ name: 'scan_log', arguments: { log: '' } });
      assert.equal(empty.isError, true);
    });

    test('check_environment', async () => {
      const res = await client.callTool({
        name: 'check_environment',
        arguments: { files: [{ name: 'requirements.txt', content: 'transformers==4.40.0\npeft==0.10.0\ntorch==2.3.0\n' }] },
      });
      assert.notEqual(res.isError, true, textOf(res));
      assertSchema('CheckAnswer', res.structuredContent);
      assert.ok(res.structuredContent.records.some((r) => r.id === SEED_ID));
      assert.ok(textOf(res).includes(SEED_ID));
      const bad = await client.callTool({
        name: 'check_environment',
        arguments: { files: [{ name: 'requirements.txt', content: '==1.0\n' }] },
      });
      assert.equal(bad.isError, true);
      assert.match(textOf(bad), /requirements\.txt:1/);
    });

    test('get_domain_stats', async () => {
      const res = await client.callTool({ name: 'get_domain_stats', arguments: {} });
      assert.notEqual(res.isError, true, textOf(res));
      assertSchema('Stats', res.structuredContent);
      assert.ok(res.structuredContent.records > 0);
      assert.ok(textOf(res).includes(String(res.structuredContent.records)));
    });

    test('get_error_chain', async () => {
      const res = await client.callTool({ name: 'get_error_chain', arguments: { id: CHAIN_ID, depth: 1 } });
      assert.notEqual(res.isError, true, textOf(res));
      assertSchema('Chain', res.structuredContent);
      assert.equal(res.structuredContent.root, CHAIN_ID);
      assert.equal(res.structuredContent.depth, 1);
      assert.ok(res.structuredContent.edges.length >= 3);
      assert.ok(textOf(res).includes('pip/externally-managed-environment'));
    });

    test('input failures answer isError', async (t) => {
      for (const [name, args] of [['get_error_detail', { id: 'python/no-such-record' }], ['lookup_error', { text: '' }],
        ['list_errors_by_domain', { domain: 'no-such-domain' }], ['get_error_chain', { id: 'python/no-such-record' }]]) {
        await t.test(`${name}(${JSON.stringify(args)})`, async () => {
          assert.equal(await expectToolFailure(client, name, args), 'isError');
        });
      }
    });

    test('arguments that do not fit the input schema answer isError naming the argument', async (t) => {
      // tool execution errors, which the model sees and can correct (SEP-1303, 2025-11-25)
      for (const [name, args, arg] of [['lookup_error', {}, 'text'], ['lookup_error', { text: 42 }, 'text'],
        ['lookup_error', { text: SEED_TEXT, limit: 0 }, 'limit'], ['lookup_error', { text: SEED_TEXT, lang: 'fr' }, 'lang'],
        ['batch_lookup', { texts: [] }, 'texts'], ['batch_lookup', { texts: Array.from({ length: 51 }, () => SEED_TEXT) }, 'texts'],
        ['batch_lookup', { texts: [SEED_TEXT, ''] }, 'texts\\[1\\]'], ['get_error_chain', { id: CHAIN_ID, depth: 9 }, 'depth']]) {
        await t.test(`${name}(${JSON.stringify(args).slice(0, 60)})`, async () => {
          const res = await client.callTool({ name, arguments: args });
          assert.equal(res.isError, true, JSON.stringify(res).slice(0, 300));
          assert.match(textOf(res), new RegExp(arg));
          assert.equal(res.structuredContent, undefined);
        });
      }
    });

    test('an unknown tool is JSON-RPC -32602', async () => {
      assert.equal(await expectToolFailure(client, 'no_such_tool', {}), 'rpc-error');
    });

    test('still answers after the failures', async () => {
      assert.deepEqual(await client.ping(), {});
      const res = await client.callTool({ name: 'lookup_error', arguments: { text: SEED_TEXT, limit: 1 } });
      assert.equal(res.structuredContent.matches[0].id, SEED_ID);
    });
  });
}

let server;

before(async () => {
  db = ensureIndex('mcp');
});

after(async () => {
  const e = await stopServer(server);
  removeIndex();
  if (server) assert.deepEqual(e, { code: 0, signal: null }, `errata serve exit on SIGTERM; stderr: ${server.stderr}`);
});

let stdioChild;
let stdioStderr = '';
transportSuite('stdio', async () => {
  const t = new StdioClientTransport({ command: BIN, args: ['mcp', '--db', db], stderr: 'pipe' });
  t.stderr.on('data', (d) => { stdioStderr += d; });
  const start = t.start.bind(t);
  t.start = async () => {
    await start();
    notePid(t.pid);
    stdioChild = t._process; // to see how it exits when its stdin closes
  };
  return t;
});

test('errata mcp exits 0 by itself when its stdin closes', async () => {
  assert.ok(stdioChild, 'the stdio server was started');
  if (stdioChild.exitCode === null && stdioChild.signalCode === null) {
    await new Promise((res) => stdioChild.once('exit', res));
  }
  assert.equal(stdioChild.signalCode, null, `killed by ${stdioChild.signalCode} (it did not exit within 2 s of EOF); stderr: ${stdioStderr}`);
  assert.equal(stdioChild.exitCode, 0, `stderr: ${stdioStderr}`);
});

transportSuite('Streamable HTTP', async () => {
  server = await startServer(db);
  return new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`));
});

// README.md, "Use from an agent": the documented mcpServers entry and URL, as a client uses
// them, so that the README cannot drift from what works.
function readmeAgentSection() {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const m = /^## Use from an agent\n([\s\S]*?)(?=^## )/m.exec(readme);
  assert.ok(m, 'README.md has a "## Use from an agent" section');
  return m[1];
}

describe('README.md: Use from an agent', () => {
  test('the mcpServers entry, run as written, answers a tool call', async () => {
    const section = readmeAgentSection();
    const block = /^```json\n([\s\S]*?)^```$/m.exec(section);
    assert.ok(block, 'a JSON block in the section');
    const entry = JSON.parse(block[1]).mcpServers?.errata;
    assert.ok(entry?.command, `an mcpServers.errata entry: ${block[1]}`);
    assert.ok(!entry.command.includes('/'), `the command is found by PATH: ${entry.command}`);
    // `errata` resolves by PATH to the binary under test. The index is chosen as the section
    // says to choose another one (ERRATA_DB), since the built-in default path need not exist here.
    const transport = new StdioClientTransport({
      command: entry.command,
      args: entry.args ?? [],
      env: { ...getDefaultEnvironment(), ...(entry.env ?? {}), PATH: `${dirname(BIN)}:${process.env.PATH}`, ERRATA_DB: db },
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr.on('data', (d) => { stderr += d; });
    const client = new Client({ name: 'errata-readme-test', version: '0.0.0' });
    await client.connect(transport);
    notePid(transport.pid);
    try {
      const { tools } = await client.listTools();
      assert.equal(tools.length, Object.keys(TOOLS).length, stderr);
      const res = await client.callTool({ name: 'lookup_error', arguments: { text: SEED_TEXT } });
      assert.equal(res.structuredContent.matches[0].id, SEED_ID, stderr);
    } finally {
      await client.close();
    }
  });

  test('the Streamable HTTP URL is where errata serve answers MCP', async () => {
    const section = readmeAgentSection();
    assert.match(section, /`errata serve`/);
    const m = /`(http:\/\/127\.0\.0\.1:8080(\/[^`]*))`/.exec(section);
    assert.ok(m, 'the URL on the default address of errata serve');
    // the documented path on the test server (it listens on a free port, not 8080)
    assert.ok(server?.url, "errata serve was started by the Streamable HTTP suite");
    const url = new URL(m[2], server.url);
    const client = new Client({ name: 'errata-readme-test', version: '0.0.0' });
    await client.connect(new StreamableHTTPClientTransport(url));
    try {
      const res = await client.callTool({ name: 'lookup_error', arguments: { text: SEED_TEXT } });
      assert.equal(res.structuredContent.matches[0].id, SEED_ID);
    } finally {
      await client.close();
    }
  });
});
