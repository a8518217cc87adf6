// Issue 28: the upstream MCP servers' tools are served beside the OpenAPI tools by the one tool directory,
// and "everything an OpenAPI tool has applies unchanged: approval …, the pinned-definition check" (issue
// 25, "Pinned tool definitions": a changed definition is held back until re-approved).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildCatalogue } from '../../../src/gateway/catalogue/build.js';
import {
  ToolDirectory,
  configApprovals,
  type ApprovalState,
  type CatalogueReloader,
} from '../../../src/gateway/catalogue/directory.js';
import { definitionHash, toolDefinition } from '../../../src/gateway/catalogue/definition.js';
import type { PinCandidate, PinStore } from '../../../src/gateway/catalogue/pins.js';
import { reloadRefusal, toolCounts } from '../../../src/gateway/catalogue/reload-guard.js';
import type { Catalogue, Tool } from '../../../src/gateway/catalogue/types.js';
import type { FederatedTools, UpstreamStatus } from '../../../src/gateway/federation/contracts.js';
import { upstreamTools } from '../../../src/gateway/federation/upstream-tools.js';
import { largeDocument } from '../support/large-document.js';

const all = () => true;
const openapi = buildCatalogue([
  { backend: 'api', document: largeDocument(3), injectedHeaders: [] },
]);
const openapiApproved = configApprovals(openapi, [{ name: 'api', approve: 'all' }]);

/** FederatedTools whose answers the test sets; `set` moves the revision as the real cache does. */
class SetFederated implements FederatedTools {
  revision = 0;
  pokes = 0;
  private list: readonly Tool[] = [];
  private approvedNames = new Set<string>();
  set(items: Record<string, unknown>[], approve: 'all' | string[] = 'all'): void {
    this.list = upstreamTools({ name: 'up', mcp: { securityClass: 'optional' } }, items).tools;
    this.approvedNames = new Set(
      this.list.filter((t) => approve === 'all' || approve.includes(t.name)).map((t) => t.name),
    );
    this.revision++;
  }
  /** Tools as given (a name the upstream mapping would not produce). */
  setTools(tools: readonly Tool[]): void {
    this.list = tools;
    this.approvedNames = new Set(tools.map((t) => t.name));
    this.revision++;
  }
  tools(): readonly Tool[] {
    return this.list;
  }
  approved(): ReadonlySet<string> {
    return this.approvedNames;
  }
  poke(): void {
    this.pokes++;
  }
  status(): readonly UpstreamStatus[] {
    return [];
  }
}

class MemoryPins implements PinStore {
  readonly pins = new Map<string, string>();
  readonly held: string[] = [];
  async load(): Promise<ReadonlyMap<string, string>> {
    return new Map(this.pins);
  }
  async pinIfAbsent(tools: readonly PinCandidate[]): Promise<string[]> {
    const pinned = tools.filter((t) => !this.pins.has(t.name));
    for (const t of pinned) this.pins.set(t.name, t.hash);
    return pinned.map((t) => t.name);
  }
  async recordHeld(tools: readonly PinCandidate[]): Promise<string[]> {
    this.held.push(...tools.map((t) => t.name));
    return tools.map((t) => t.name);
  }
  async clearHeld(): Promise<string[]> {
    return [];
  }
}

const tool = (name: string, description = `${name}.`) => ({
  name,
  description,
  inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
});

test('issue 28: the served catalogue is the OpenAPI tools and the upstream tools, in name order', async () => {
  const federated = new SetFederated();
  federated.set([tool('alpha'), tool('zulu')], ['up_alpha']);
  const dir = new ToolDirectory(
    openapi,
    openapiApproved,
    undefined,
    5000,
    Date.now,
    undefined,
    undefined,
    undefined,
    federated,
  );
  const names = dir.catalogue.tools.map((t) => t.name);
  assert.deepEqual(names, [...openapi.tools.map((t) => t.name), 'up_alpha', 'up_zulu'].sort());
  assert.deepEqual(
    dir.page(undefined, 100, all).tools.map((t) => t.name),
    [...openapi.tools.map((t) => t.name), 'up_alpha'].sort(),
    'configuration approves up_alpha only (federated.approved())',
  );
  assert.equal(dir.find('up_alpha', all)?.mcp?.name, 'alpha');
  assert.equal(dir.find('up_zulu', all), undefined, 'not approved: unknown to callers');
  assert.equal(dir.base, openapi, 'the OpenAPI catalogue alone stays what reloads replace');
  await dir.refresh();
  assert.equal(
    federated.pokes,
    1,
    'refresh pokes the federated lists (stale ones reload in the background)',
  );
});

test('the revision moves when the federated lists do, and the merged catalogue follows', () => {
  const federated = new SetFederated();
  federated.set([tool('a')]);
  const dir = new ToolDirectory(
    openapi,
    openapiApproved,
    undefined,
    5000,
    Date.now,
    undefined,
    undefined,
    undefined,
    federated,
  );
  const before = dir.revision;
  const first = dir.catalogue;
  assert.equal(dir.catalogue, first, 'rebuilt only when something moved');
  federated.set([tool('a'), tool('b')]);
  assert.ok(dir.revision > before);
  assert.ok(dir.catalogue.byName.has('up_b'));
  assert.ok(dir.find('up_b', all));
  federated.set([]);
  assert.equal(dir.find('up_a', all), undefined, 'an upstream that is down offers nothing');
});

test('stored approval state overrides configuration for upstream tools too', async () => {
  const federated = new SetFederated();
  federated.set([tool('a'), tool('b')], ['up_a']);
  const stored = new Map<string, ApprovalState>([
    ['up_a', 'revoked'],
    ['up_b', 'approved'],
  ]);
  const dir = new ToolDirectory(
    openapi,
    openapiApproved,
    { load: async () => stored },
    5000,
    Date.now,
    undefined,
    undefined,
    undefined,
    federated,
  );
  await dir.refresh(true);
  assert.equal(dir.isApproved('up_a'), false);
  assert.equal(dir.isApproved('up_b'), true);
});

test('issue 25/28: a changed upstream tool definition is held back until re-approved (pinned again)', async () => {
  const federated = new SetFederated();
  federated.set([tool('a'), tool('b')]);
  const pins = new MemoryPins();
  let now = 0;
  const dir = new ToolDirectory(
    openapi,
    openapiApproved,
    { load: async () => new Map() },
    60_000,
    () => now,
    undefined,
    pins,
    (error) => assert.fail(String(error)),
    federated,
  );
  await dir.refresh(true);
  assert.ok(pins.pins.has('up_a') && pins.pins.has('up_b'), 'approved upstream tools are pinned');
  // The upstream changes one tool's description; within the approval refresh interval.
  federated.set([tool('a', 'Now it deletes everything.'), tool('b')]);
  now = 1;
  await dir.refresh();
  assert.equal(dir.find('up_a', all), undefined, 'held back: not callable');
  assert.ok(!dir.page(undefined, 100, all).tools.some((t) => t.name === 'up_a'), 'nor listed');
  assert.ok(dir.find('up_b', all), 'the unchanged tool is served');
  assert.deepEqual(pins.held, ['up_a'], 'the hold-back is recorded at once, not a refresh later');
  // A new upstream tool approved by configuration is pinned as it arrives.
  federated.set([tool('a', 'Now it deletes everything.'), tool('b'), tool('c')]);
  now = 2;
  await dir.refresh();
  assert.ok(pins.pins.has('up_c'));
  // Re-approval pins the new definition (admin/tool-settings.ts does this): served again.
  const changed = dir.catalogue.byName.get('up_a') as Tool;
  pins.pins.delete('up_a');
  await pins.pinIfAbsent([
    { name: 'up_a', hash: definitionHash(toolDefinition(changed)), definition: {} },
  ]);
  now = 60_001;
  await dir.refresh();
  assert.ok(dir.find('up_a', all));
});

test('catalogue reloads keep merging the upstream tools; an OpenAPI tool keeps a name an upstream tool has', async () => {
  const federated = new SetFederated();
  const clash = openapi.tools[0]?.name as string;
  federated.set([tool('a')]);
  let generation = 1;
  let next: Catalogue = openapi;
  const reloader: CatalogueReloader = {
    generation: async () => ({ generation, forced: false }),
    load: async () => ({ catalogue: next, configApproved: openapiApproved }),
    failed: (_g, error) => assert.fail(String(error)),
  };
  let now = 0;
  const dir = new ToolDirectory(
    openapi,
    openapiApproved,
    { load: async () => new Map() },
    10,
    () => now,
    reloader,
    undefined,
    undefined,
    federated,
  );
  await dir.refresh(true);
  next = buildCatalogue([{ backend: 'api', document: largeDocument(5), injectedHeaders: [] }]);
  generation = 2;
  now = 100;
  await dir.refresh();
  await dir.reloading;
  assert.equal(dir.catalogue.tools.length, 6);
  assert.ok(dir.find('up_a', all));
  // An upstream tool named as an OpenAPI tool (a reload can bring one): the OpenAPI tool is served.
  const named = new SetFederated();
  named.set([tool('x')]);
  named.setTools([{ ...(named.tools()[0] as Tool), name: clash }]);
  const dir2 = new ToolDirectory(
    openapi,
    openapiApproved,
    undefined,
    5000,
    Date.now,
    undefined,
    undefined,
    undefined,
    named,
  );
  assert.equal(dir2.catalogue.byName.get(clash)?.backend, 'api');
  assert.equal(dir2.catalogue.tools.length, 3);
});

test('the reload guard counts OpenAPI backends and tools only: an MCP backend is never "a backend without tools"', () => {
  const federated = new SetFederated();
  federated.set([tool('a'), tool('b')]);
  const merged = new ToolDirectory(
    openapi,
    openapiApproved,
    undefined,
    5000,
    Date.now,
    undefined,
    undefined,
    undefined,
    federated,
  ).catalogue;
  const backends = [{ name: 'api' }, { name: 'up', mcp: { url: 'http://127.0.0.1:9/mcp' } }];
  assert.deepEqual(toolCounts(merged, backends), { api: 3 });
  assert.equal(reloadRefusal(toolCounts(openapi, backends), null, 0.5), undefined);
});
