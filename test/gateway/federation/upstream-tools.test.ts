// Issue 28 ("its tools join the catalogue under a per-backend prefix"; "overrides (name, title,
// description, annotations, hidden arguments) … apply unchanged"): an upstream's tools/list items become
// catalogue tools, and items the gateway cannot offer faithfully are left out with a warning.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  upstreamTools,
  type UpstreamToolsBackend,
} from '../../../src/gateway/federation/upstream-tools.js';

const backend = (over: Partial<UpstreamToolsBackend> = {}): UpstreamToolsBackend => ({
  name: 'docs',
  mcp: { securityClass: 'optional' },
  ...over,
});

const search = {
  name: 'search',
  title: 'Search the docs',
  description: 'Full-text search.',
  inputSchema: {
    type: 'object',
    properties: { query: { type: 'string' }, limit: { type: 'integer', maximum: 50 } },
    required: ['query', 'limit'],
  },
  outputSchema: { type: 'object', properties: { hits: { type: 'array' } } },
  annotations: { readOnlyHint: true, openWorldHint: 'yes', custom: 1 },
  icons: [{ src: 'https://example.test/i.png' }],
  _meta: { 'example.test/x': 1 },
  execution: { taskSupport: 'optional' },
};

test('issue 28: the default prefix is the backend name and "_"; the upstream name is kept for the call', () => {
  const { tools, warnings } = upstreamTools(backend(), [search]);
  assert.deepEqual(warnings, []);
  const [tool] = tools;
  assert.ok(tool);
  assert.equal(tool.name, 'docs_search');
  assert.equal(tool.backend, 'docs');
  assert.deepEqual(tool.mcp, {
    name: 'search',
    extra: {
      execution: { taskSupport: 'optional' },
      icons: [{ src: 'https://example.test/i.png' }],
      _meta: { 'example.test/x': 1 },
    },
  });
  assert.equal(tool.operationId, 'search', 'the configuration key of the tool');
  assert.equal(tool.operation, undefined);
  assert.equal(tool.title, 'Search the docs');
  assert.equal(tool.description, 'Full-text search.');
  assert.deepEqual(tool.inputSchema, search.inputSchema);
  assert.deepEqual(tool.outputSchema, search.outputSchema);
  // MCP defines the hints' types: a non-boolean hint and unknown members are not passed on.
  assert.deepEqual(tool.annotations, { readOnlyHint: true });
  assert.equal(tool.securityClass, 'optional');
});

test('mcp.toolPrefix replaces the default; "" keeps the upstream name; securityClass comes from mcp', () => {
  const prefixed = upstreamTools(
    backend({ mcp: { toolPrefix: 'kb-', securityClass: 'user-scoped' } }),
    [search],
  );
  assert.equal(prefixed.tools[0]?.name, 'kb-search');
  assert.equal(prefixed.tools[0]?.securityClass, 'user-scoped');
  const bare = upstreamTools(backend({ mcp: { toolPrefix: '', securityClass: 'public' } }), [
    search,
  ]);
  assert.equal(bare.tools[0]?.name, 'search');
});

test('names with characters the catalogue does not allow are sanitized, and the rename reported', () => {
  const { tools, warnings } = upstreamTools(backend(), [{ ...search, name: 'files.read/all' }]);
  assert.equal(tools[0]?.name, 'docs_files_read_all');
  assert.equal(tools[0]?.mcp?.name, 'files.read/all');
  assert.match(
    warnings.join('\n'),
    /tool name "docs_files_read_all" \(upstream name "files\.read\/all"\)/,
  );
});

test('an item without a usable name or schema is skipped with a warning naming it; the rest stay', () => {
  const bad = [
    'not an object',
    { inputSchema: { type: 'object' } },
    { name: '...', inputSchema: { type: 'object' } },
    { name: 'noSchema' },
    { name: 'arraySchema', inputSchema: { type: 'array' } },
    { name: 'badSchema', inputSchema: { type: 'object', properties: { a: { type: 'nope' } } } },
    { name: 'badOutput', inputSchema: { type: 'object' }, outputSchema: { type: 'string' } },
    { name: 'badTitle', inputSchema: { type: 'object' }, title: 42 },
    { name: 'x'.repeat(70), inputSchema: { type: 'object' } },
    { name: 'search', inputSchema: { type: 'object' } },
  ];
  const { tools, warnings } = upstreamTools(backend(), [search, ...bad]);
  assert.deepEqual(
    tools.map((t) => t.name),
    ['docs_search'],
  );
  const text = warnings.join('\n');
  for (const expected of [
    /tools\/list\[1\]: skipped \(not an object\)/,
    /tools\/list\[2\]: skipped \(name is not a string/,
    /"\.\.\."\): skipped \(the name has no letter/,
    /"noSchema"\): skipped \(inputSchema is missing\)/,
    /"arraySchema"\): skipped \(inputSchema does not have type "object"\)/,
    /"badSchema"\): skipped \(inputSchema is not a valid JSON Schema/,
    /"badOutput"\): skipped \(outputSchema does not have type "object"\)/,
    /"badTitle"\): skipped \(title is not a string\)/,
    /is not 1-64 characters/,
    /skipped \(the upstream lists "search" twice\)/,
  ])
    assert.match(text, expected);
});

test('two upstream names that sanitize alike: the first keeps the name, the second is skipped', () => {
  const { tools, warnings } = upstreamTools(backend(), [
    { ...search, name: 'a.b' },
    { ...search, name: 'a_b' },
  ]);
  assert.deepEqual(
    tools.map((t) => t.mcp?.name),
    ['a.b'],
  );
  assert.match(
    warnings.join('\n'),
    /"a_b"\): skipped \(its name "docs_a_b" is already that of upstream tool "a\.b"\)/,
  );
});

test('issue 28 overrides, keyed by the upstream name: rename, title, description, annotations, scopes, hidden', () => {
  const { tools, warnings } = upstreamTools(
    backend({
      tools: {
        search: {
          name: 'findDocs',
          title: 'Find documents',
          description: 'Searches the knowledge base.',
          annotations: { idempotentHint: true },
          hidden: { limit: 10 },
          scopes: ['docs.read'],
        },
      },
    }),
    [search],
  );
  assert.deepEqual(warnings, []);
  const tool = tools[0];
  assert.ok(tool);
  assert.equal(tool.name, 'findDocs');
  assert.equal(tool.mcp?.name, 'search', 'the call still goes to the upstream name');
  assert.equal(tool.title, 'Find documents');
  assert.equal(tool.description, 'Searches the knowledge base.');
  assert.deepEqual(tool.annotations, { readOnlyHint: true, idempotentHint: true });
  assert.deepEqual(tool.scopes, ['docs.read']);
  assert.deepEqual(tool.fixedArguments, { limit: 10 });
  assert.deepEqual(Object.keys(tool.inputSchema.properties as object), ['query']);
  assert.deepEqual(tool.inputSchema.required, ['query']);
});

test('a hidden argument the upstream tool lacks, or a value its schema refuses: the tool is left out', () => {
  const missing = upstreamTools(backend({ tools: { search: { hidden: { nope: 1 } } } }), [search]);
  assert.deepEqual(missing.tools, []);
  assert.match(
    missing.warnings.join('\n'),
    /gateway\.backends\[docs\]\.tools\.search\.hidden\.nope: the tool has no argument "nope"/,
  );
  const refused = upstreamTools(backend({ tools: { search: { hidden: { limit: 500 } } } }), [
    search,
  ]);
  assert.deepEqual(refused.tools, []);
  assert.match(refused.warnings.join('\n'), /hidden\.limit: the fixed value does not satisfy/);
});

test('an override rescues a name too long with its prefix; an override of a tool not listed is ignored', () => {
  const long = 'y'.repeat(62);
  const { tools } = upstreamTools(
    backend({ tools: { [long]: { name: 'shortName' }, gone: { title: 'Gone' } } }),
    [{ ...search, name: long }],
  );
  assert.deepEqual(
    tools.map((t) => t.name),
    ['shortName'],
  );
});

test('schemas with a draft-07 $schema (as SDK v1 servers send) are accepted, as the call path compiles them', () => {
  const { tools, warnings } = upstreamTools(backend(), [
    {
      name: 'echo',
      inputSchema: {
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        properties: { message: { type: 'string' } },
        required: ['message'],
        additionalProperties: false,
      },
    },
    { name: 'withId', inputSchema: { $id: 'https://example.test/s', type: 'object' } },
  ]);
  assert.deepEqual(warnings, []);
  assert.equal(tools.length, 2);
  // The same $id again on the next refresh compiles too (the compile cache does not keep it).
  assert.equal(
    upstreamTools(backend(), [
      { name: 'withId', inputSchema: { $id: 'https://example.test/s', type: 'object' } },
    ]).tools.length,
    1,
  );
});
