// The gateway's MCP endpoint (endpoint.ts → dispatch.ts) on a bare fastify app with the given federated
// catalogs, a small OpenAPI catalogue, a gatekeeper that records every admission (and can refuse, like a
// quota) and a usage sink: for the federation tests of resources and prompts through the real request
// path, in both protocol eras (issue 28).
import Fastify, { type FastifyInstance } from 'fastify';
import { buildCatalogue } from '../../../../src/gateway/catalogue/build.js';
import { ToolDirectory, configApprovals } from '../../../../src/gateway/catalogue/directory.js';
import type { Caller } from '../../../../src/gateway/caller.js';
import { GatewayError } from '../../../../src/gateway/errors.js';
import type { Gatekeeper } from '../../../../src/gateway/gatekeeper/gatekeeper.js';
import type { FederatedCatalogs } from '../../../../src/gateway/federation/federated-catalogs.js';
import { ArgumentValidator } from '../../../../src/gateway/mcp/arguments.js';
import { Dispatcher } from '../../../../src/gateway/mcp/dispatch.js';
import { registerMcpEndpoint } from '../../../../src/gateway/mcp/endpoint.js';
import { ToolCalls } from '../../../../src/gateway/mcp/tool-calls.js';
import { ToolListing } from '../../../../src/gateway/mcp/tool-listing.js';
import type { UsageEvents } from '../../../../src/gateway/usage/recorder.js';
import { registerAccessLog } from '../../../../src/shared/http/access-log.js';
import { largeDocument } from '../../support/large-document.js';
import { MCP_HEADERS, OPEN_GATEKEEPER } from '../../support/gateway.js';
import { testCaller } from './in-memory-upstream.js';

const catalogue = buildCatalogue([
  { backend: 'big', document: largeDocument(3), injectedHeaders: [] },
]);

export interface Harness {
  app: FastifyInstance;
  admitted: (string | undefined)[];
  usage: string[];
  /** Set: the next admissions are refused (a quota). */
  refuse: boolean;
  /** The caller the gatekeeper builds. */
  caller: Caller;
}

export async function harness(catalogs: FederatedCatalogs | undefined): Promise<Harness> {
  const directory = new ToolDirectory(
    catalogue,
    configApprovals(catalogue, [{ name: 'big', approve: 'all' }]),
  );
  const listing = new ToolListing({ directory, pageSize: 10 });
  const calls = new ToolCalls({
    directory,
    validator: new ArgumentValidator(),
    clients: new Map(),
    gatekeeper: OPEN_GATEKEEPER,
    identity: async () => ({}),
    hidden: [],
  });
  const h: Harness = {
    app: Fastify(),
    admitted: [],
    usage: [],
    refuse: false,
    caller: testCaller(),
  };
  const gatekeeper: Gatekeeper = {
    identify: async (request) => ({ ...h.caller, requestId: request.requestId }),
    admit: async (_caller, tool) => {
      if (h.refuse)
        throw new GatewayError('RATE_LIMITED', 'Too many requests', undefined, {
          'Retry-After': '1',
        });
      h.admitted.push(tool);
      return { 'RateLimit-Remaining': String(100 - h.admitted.length) };
    },
    authorize: OPEN_GATEKEEPER.authorize,
  };
  const usage: UsageEvents = {
    call: (_s, tool) => h.usage.push(`call:${tool}`),
    quotaRefused: (_s, tool) => h.usage.push(`refused:${tool}`),
  };
  // the access line's fields, as the gateway's app decorates every request (shared/http/access-log.ts)
  registerAccessLog(h.app);
  const dispatcher = new Dispatcher(
    listing,
    calls,
    { name: 'toolgate', listTtlMs: 5000 },
    catalogs,
  );
  await registerMcpEndpoint(h.app, {
    path: '/mcp',
    dispatcher,
    gatekeeper,
    usage,
    allowedOrigins: [],
    allowLoopbackOrigins: true,
    maxBatchSize: 10,
  });
  return h;
}

export type Body = {
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: Record<string, unknown> };
};

export async function legacy(
  h: Harness,
  method: string,
  params: Record<string, unknown> = {},
  version = '2025-11-25',
) {
  const reply = await h.app.inject({
    method: 'POST',
    url: '/mcp',
    headers: { ...MCP_HEADERS, 'mcp-protocol-version': version },
    payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return { status: reply.statusCode, body: JSON.parse(reply.body) as Body, headers: reply.headers };
}

export const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

export async function modern(
  h: Harness,
  method: string,
  params: Record<string, unknown> = {},
  name?: string,
) {
  const reply = await h.app.inject({
    method: 'POST',
    url: '/mcp',
    headers: {
      ...MCP_HEADERS,
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(name === undefined ? {} : { 'mcp-name': name }),
    },
    payload: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params: { ...params, _meta: META } }),
  });
  return { status: reply.statusCode, body: JSON.parse(reply.body) as Body };
}
