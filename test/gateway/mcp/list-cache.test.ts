// tools/list pages are assembled once and served from a cache keyed by the directory's revision, the
// revision family, the subscription's view and the cursor (tracker issue 17): a repeated list costs a
// lookup, and the cache must never show a caller a tool it may not use or one no longer approved.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildCatalogue } from '../../../src/gateway/catalogue/build.js';
import {
  ToolDirectory,
  configApprovals,
  type ApprovalState,
} from '../../../src/gateway/catalogue/directory.js';
import type { Caller } from '../../../src/gateway/caller.js';
import type { RawJson } from '../../../src/gateway/mcp/raw-json.js';
import { ToolListing } from '../../../src/gateway/mcp/tool-listing.js';
import { largeDocument } from '../support/large-document.js';

const catalogue = buildCatalogue([
  { backend: 'big', document: largeDocument(30), injectedHeaders: [] },
]);

function caller(tools: ReadonlySet<string> | 'all'): Caller {
  return {
    requestId: 'r',
    clientIp: '127.0.0.1',
    subscription: {
      id: 's',
      application: 'a',
      environment: 'development',
      tools,
      rateLimitPerMinute: null,
    },
    user: null,
  };
}

function service(stored: () => Map<string, ApprovalState>, clock: { now: number }) {
  const directory = new ToolDirectory(
    catalogue,
    configApprovals(catalogue, [{ name: 'big', approve: 'all' }]),
    { load: async () => stored() },
    1000,
    () => clock.now,
  );
  return new ToolListing({ directory, pageSize: 10 });
}

const names = (result: Record<string, unknown>): string[] =>
  (JSON.parse((result.tools as RawJson).text) as { name: string }[]).map((t) => t.name);

test('a repeated list is served from the cache; equal subscription views share a page, others do not', async () => {
  const tools = service(() => new Map(), { now: 0 });
  const everyone = await tools.list(caller('all'), {}, '2025-11-25');
  assert.equal((await tools.list(caller('all'), {}, '2025-11-25')).tools, everyone.tools);
  assert.equal(names(everyone).length, 10);
  assert.equal(typeof everyone.nextCursor, 'string');

  // Two set objects with the same names (two requests of one product): one page between them.
  const one = await tools.list(
    caller(new Set(['operation0003', 'operation0001'])),
    {},
    '2025-11-25',
  );
  const same = await tools.list(
    caller(new Set(['operation0001', 'operation0003'])),
    {},
    '2025-11-25',
  );
  assert.equal(same.tools, one.tools);
  assert.deepEqual(names(one), ['operation0001', 'operation0003']);
  assert.equal(one.nextCursor, undefined);
  const other = await tools.list(caller(new Set(['operation0002'])), {}, '2025-11-25');
  assert.deepEqual(
    names(other),
    ['operation0002'],
    'another view never gets a cached page of the first',
  );

  // The next page by cursor, and another revision family, are pages of their own.
  const second = await tools.list(caller('all'), { cursor: everyone.nextCursor }, '2025-11-25');
  assert.deepEqual(
    names(second),
    names(everyone).map((_, i) => `operation00${10 + i}`),
  );
  const older = await tools.list(caller('all'), {}, '2024-11-05');
  assert.notEqual(older.tools, everyone.tools);
  assert.doesNotMatch((older.tools as RawJson).text, /"annotations"|"outputSchema"|"title"/);
});

test('a revoked tool leaves the cached listing once the directory re-reads the approvals', async () => {
  let stored = new Map<string, ApprovalState>();
  const clock = { now: 0 };
  const tools = service(() => new Map(stored), clock);
  const before = await tools.list(caller('all'), {}, '2025-11-25');
  assert.equal(names(before)[0], 'operation0000');
  stored = new Map([['operation0000', 'revoked']]);
  clock.now = 1500;
  const after = await tools.list(caller('all'), {}, '2025-11-25');
  assert.equal(names(after)[0], 'operation0001');
  assert.ok(!names(after).includes('operation0000'));
});
