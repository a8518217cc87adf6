// Approval state (configuration, overridden by stored state) and stateless cursor pagination.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildCatalogue } from '../../../src/gateway/catalogue/build.js';
import {
  ToolDirectory,
  configApprovals,
  decodeCursor,
  encodeCursor,
  type ApprovalState,
} from '../../../src/gateway/catalogue/directory.js';
import { GatewayError } from '../../../src/gateway/errors.js';
import { largeDocument } from '../support/large-document.js';

const catalogue = buildCatalogue([
  { backend: 'big', document: largeDocument(250), injectedHeaders: [] },
]);
const all = () => true;

test('configuration approves all or a list of names / operationIds', () => {
  assert.equal(configApprovals(catalogue, [{ name: 'big', approve: 'all' }]).size, 250);
  const some = configApprovals(catalogue, [{ name: 'big', approve: ['operation0001', 'nope'] }]);
  assert.deepEqual([...some], ['operation0001']);
  assert.equal(configApprovals(catalogue, [{ name: 'other', approve: 'all' }]).size, 0);
});

test('MCP server/tools#pagination: cursors walk every approved tool once, in name order', () => {
  const dir = new ToolDirectory(
    catalogue,
    configApprovals(catalogue, [{ name: 'big', approve: 'all' }]),
  );
  const seen: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = dir.page(cursor, 100, all);
    seen.push(...page.tools.map((t) => t.name));
    cursor = page.nextCursor;
    pages++;
  } while (cursor !== undefined);
  assert.equal(pages, 3);
  assert.equal(seen.length, 250);
  assert.equal(new Set(seen).size, 250);
  assert.deepEqual(seen, [...seen].sort());
});

test('a full last page has no nextCursor; an exact multiple does not produce an empty page', () => {
  const dir = new ToolDirectory(
    catalogue,
    configApprovals(catalogue, [{ name: 'big', approve: 'all' }]),
  );
  const first = dir.page(undefined, 125, all);
  const second = dir.page(first.nextCursor, 125, all);
  assert.equal(second.tools.length, 125);
  assert.equal(second.nextCursor, undefined);
});

test('stored approval state overrides configuration, and is re-read after refreshMs', async () => {
  let stored = new Map<string, ApprovalState>([['operation0000', 'revoked']]);
  let now = 0;
  const dir = new ToolDirectory(
    catalogue,
    configApprovals(catalogue, [{ name: 'big', approve: ['operation0000'] }]),
    { load: async () => stored },
    1000,
    () => now,
  );
  await dir.refresh();
  assert.equal(dir.isApproved('operation0000'), false);
  stored = new Map([
    ['operation0000', 'approved'],
    ['operation0002', 'approved'],
  ]);
  await dir.refresh();
  assert.equal(dir.isApproved('operation0002'), false, 'not yet re-read');
  now = 1500;
  await dir.refresh();
  assert.equal(dir.isApproved('operation0000'), true);
  assert.equal(dir.isApproved('operation0002'), true);
  assert.deepEqual(
    dir.page(undefined, 10, all).tools.map((t) => t.name),
    ['operation0000', 'operation0002'],
  );
});

test('visibility filter (subscription) hides tools from lists and lookups', () => {
  const dir = new ToolDirectory(
    catalogue,
    configApprovals(catalogue, [{ name: 'big', approve: 'all' }]),
  );
  const only = (name: string) => name === 'operation0007';
  assert.deepEqual(
    dir.page(undefined, 50, only).tools.map((t) => t.name),
    ['operation0007'],
  );
  assert.equal(dir.find('operation0008', only), undefined);
  assert.equal(dir.find('operation0007', only)?.name, 'operation0007');
});

test('cursors round-trip; foreign cursors are rejected as invalid params', () => {
  assert.equal(decodeCursor(encodeCursor('abc')), 'abc');
  for (const bad of ['%%%', Buffer.from('{"x":1}').toString('base64url'), 'a'.repeat(600)]) {
    assert.throws(
      () => decodeCursor(bad),
      (e: unknown) => e instanceof GatewayError && e.rpcCode === -32602,
    );
  }
});

test('the revision moves when the stored approvals change, and not when an identical state is re-read', async () => {
  let stored = new Map<string, ApprovalState>([['operation0000', 'revoked']]);
  let now = 0;
  const dir = new ToolDirectory(
    catalogue,
    configApprovals(catalogue, [{ name: 'big', approve: 'all' }]),
    { load: async () => new Map(stored) },
    1000,
    () => now,
  );
  await dir.refresh(true);
  const first = dir.revision;
  now = 1500;
  await dir.refresh();
  assert.equal(dir.revision, first, 'the same approvals read again: listings stay cached');
  stored = new Map([['operation0000', 'approved']]);
  now = 3000;
  await dir.refresh();
  assert.notEqual(dir.revision, first, 'a changed approval moves the revision');
});
