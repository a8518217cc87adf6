// The tool catalogue changed through the admin service reaches every replica without a restart: two
// gateways on one database, a rename with a hidden argument, a security class, a revocation — both
// replicas' tools/list show them after their next refresh. Invalid settings are refused and stored nowhere.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ToolPatchSchema,
  ToolSettingsService,
  configuredToolCatalogue,
} from '../../../src/gateway/admin/tool-settings.js';
import { validated } from '../../../src/gateway/admin/http/validate.js';
import { loadConfig } from '../../../src/config/load.js';
import { AdminError } from '../../../src/gateway/admin/errors.js';
import type { Database } from '../../../src/shared/db/types.js';
import { startFixtureBackend, type FixtureBackend } from '../support/fixture-backend.js';
import {
  MCP_HEADERS,
  fixtureBackendConfig,
  injectToolCall,
  startTestGateway,
  type TestGateway,
} from '../support/gateway.js';
import { ADMIN, DEVELOPER, RecordingAuditSink } from './live-support.js';
import { DATABASE_TARGETS, type OpenedDatabase } from './support.js';

async function list(gw: TestGateway): Promise<Map<string, Record<string, unknown>>> {
  const r = await gw.app.inject({
    method: 'POST',
    url: '/mcp',
    headers: { ...MCP_HEADERS, 'mcp-protocol-version': '2025-11-25' },
    payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  const tools = (r.json() as { result: { tools: Record<string, unknown>[] } }).result.tools;
  return new Map(tools.map((t) => [String(t.name), t]));
}

async function eventually(
  gw: TestGateway,
  seen: (tools: Map<string, Record<string, unknown>>) => boolean,
): Promise<Map<string, Record<string, unknown>>> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const tools = await list(gw);
    if (seen(tools)) return tools;
    if (Date.now() > deadline) throw new Error(`not seen within 10 s: ${[...tools.keys()].join()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

for (const target of DATABASE_TARGETS)
  describe(`tool settings on two replicas (${target.name})`, { skip: target.skip }, () => {
    let backend: FixtureBackend;
    let opened: OpenedDatabase;
    let db: Database;
    let replicas: TestGateway[];
    let service: ToolSettingsService;
    let audit: RecordingAuditSink;

    before(async () => {
      backend = await startFixtureBackend();
      opened = await target.open();
      db = opened.db;
      const gateway = {
        backends: [fixtureBackendConfig(backend.baseUrl)],
        mcp: { approvalRefreshMs: 0 },
      };
      replicas = [
        await startTestGateway(gateway, undefined, { db }),
        await startTestGateway(gateway, undefined, { db }),
      ];
      audit = new RecordingAuditSink();
      service = new ToolSettingsService({
        db,
        audit,
        loadCatalogue: configuredToolCatalogue(
          loadConfig({ env: {}, overrides: { gateway } }).gateway.backends,
        ),
      });
    });
    after(async () => {
      for (const gw of replicas) await gw.close();
      await opened.close();
      await backend.close();
    });

    test('list shows backend, approval, security class and annotations', async () => {
      const tools = await service.list();
      const get = tools.find((t) => t.name === 'getPayment');
      assert.equal(get?.backend, 'fixture');
      assert.deepEqual(get?.approval, { state: 'approved', source: 'configuration' });
      assert.equal(get?.securityClass, 'public');
      assert.equal(get?.annotations.readOnlyHint, true);
      assert.deepEqual(get?.overrides, {});
      assert.equal(tools.find((t) => t.name === 'getMyAccountBalance')?.securityClass, 'user');
    });

    test('rename + hidden argument + title, and a revocation, reach both replicas', async () => {
      for (const gw of replicas) assert.ok((await list(gw)).has('getPayment'));
      const renamed = await service.update(ADMIN, 'getPayment', {
        name: 'readPayment',
        title: 'Read one payment',
        hidden: { verbose: true },
        securityClass: 'user',
      });
      assert.equal(renamed.name, 'readPayment');
      assert.equal(renamed.configuredName, 'getPayment');
      assert.deepEqual(renamed.hiddenArguments, ['verbose']);
      assert.equal(renamed.securityClass, 'user');
      const revoked = await service.update(ADMIN, 'cancelPayment', { approval: 'revoked' });
      assert.equal(revoked.approval.state, 'revoked');
      assert.equal(revoked.approval.updatedBy, 'alice');

      for (const gw of replicas) {
        const tools = await eventually(gw, (t) => t.has('readPayment') && !t.has('cancelPayment'));
        assert.equal(tools.has('getPayment'), false);
        const read = tools.get('readPayment') as {
          title?: string;
          inputSchema: { properties: object };
        };
        assert.equal(read.title, 'Read one payment');
        assert.equal('verbose' in read.inputSchema.properties, false);
        // The new security class: the anonymous test caller may not call it any more.
        const call = await injectToolCall(gw, 'readPayment', { paymentId: 'p1' });
        assert.equal(call.status, 401);
      }
      assert.deepEqual(
        audit.entries.map((e) => [e.action, e.target.id]),
        [
          // Changing an approved tool pins its new definition (issue 25, pinned tool definitions).
          ['tool.pin', 'getPayment'],
          ['tool.update', 'getPayment'],
          ['tool.update', 'cancelPayment'],
        ],
      );
      assert.deepEqual(audit.inTransaction, [true, true, true]);
      assert.deepEqual((audit.entries[1]?.after as { overrides: unknown }).overrides, {
        name: 'readPayment',
        title: 'Read one payment',
        securityClass: 'user',
        hidden: ['verbose'],
      });

      // Back: null removes an override; the tool is found by its configured name as well.
      const back = await service.update(ADMIN, 'getPayment', {
        name: null,
        title: null,
        hidden: null,
        securityClass: null,
      });
      assert.equal(back.name, 'getPayment');
      assert.deepEqual(back.overrides, {});
      await service.update(ADMIN, 'cancelPayment', { approval: 'approved' });
      for (const gw of replicas)
        await eventually(
          gw,
          (t) => t.has('getPayment') && t.has('cancelPayment') && !t.has('readPayment'),
        );
    });

    test('settings that cannot apply are refused with the field, and nothing is stored', async () => {
      const before = await service.get('getPayment');
      await assert.rejects(
        service.update(ADMIN, 'getPayment', { hidden: { nonexistent: 1 } }),
        (e: unknown) =>
          e instanceof AdminError &&
          e.code === 'TOOL_SETTINGS_INVALID' &&
          e.fields[0]?.field === 'hidden.nonexistent',
      );
      await assert.rejects(
        service.update(ADMIN, 'getPayment', { name: 'cancelPayment' }),
        (e: unknown) => e instanceof AdminError && e.fields[0]?.field === 'name',
      );
      // A change that breaks the schema is refused where changes come in (the API's routes and the
      // portal's forms validate with this one function) and never reaches the service.
      assert.throws(
        () => validated(ToolPatchSchema, { securityClass: 'everyone', colour: 'red' }),
        (e: unknown) =>
          e instanceof AdminError &&
          e.code === 'VALIDATION_FAILED' &&
          e.fields
            .map((p) => p.field)
            .sort()
            .join() === 'colour,securityClass',
      );
      await assert.rejects(
        service.update(DEVELOPER, 'getPayment', { title: 'Mine' }),
        (e: unknown) => e instanceof AdminError && e.code === 'FORBIDDEN',
      );
      await assert.rejects(
        service.update(ADMIN, 'noSuchTool', { title: 'x' }),
        (e: unknown) => e instanceof AdminError && e.code === 'UNKNOWN_TOOL',
      );
      assert.deepEqual(await service.get('getPayment'), before);
    });
  });
