// Child process of bench/federation/run.mjs: one server, on port 0, reporting its URL over IPC and
// answering 'cpu' (its process.cpuUsage) and 'stats' (the upstream's JSON-RPC methods received) questions.
//   node servers.mjs upstream
//   node servers.mjs upstream-raw
//   node servers.mjs toolgate <upstreamUrl> <key-file>
// upstream: an MCP server on the TypeScript SDK (@modelcontextprotocol/sdk 1.x) as the SDK's stateless
// example builds it: a new McpServer + StreamableHTTPServerTransport per request, no session, JSON
// responses, one tool `echo` (its message back as text). upstream-raw: the same tool answered by a few
// lines of node:http (2025-06-18 without a session, JSON responses, no SDK): an upstream that costs next
// to nothing, so what toolgate adds is not lost in the upstream's own cost and noise. toolgate: createGateway as the service builds it
// (in-memory database, warn logs through the redacting logger to /dev/null), the upstream as its only
// backend (`mcp`, toolPrefix "" so the tool keeps its name and both paths get the same body, identity mode
// none, public), callers identified by a subscription key only (no user).
import { createServer } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('../..', import.meta.url).pathname;
const dist = (p) => join(root, 'dist', p);
const [role, upstreamUrl, keyFile] = process.argv.slice(2);

/** JSON-RPC method → how many the upstream received (run.mjs checks the gateway does not re-initialize). */
const methods = {};

function body(req) {
  return new Promise((resolve) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

async function upstream() {
  const { McpServer } = await import('@modelcontextprotocol/sdk/server/mcp.js');
  const { StreamableHTTPServerTransport } =
    await import('@modelcontextprotocol/sdk/server/streamableHttp.js');
  const { z } = await import('zod');
  return createServer(async (req, res) => {
    const text = await body(req);
    const parsed = text === '' ? undefined : JSON.parse(text);
    const method = parsed?.method ?? `(${req.method})`;
    methods[method] = (methods[method] ?? 0) + 1;
    const server = new McpServer({ name: 'bench-upstream', version: '1.0.0' });
    server.registerTool(
      'echo',
      { description: 'Answers its message.', inputSchema: { message: z.string() } },
      ({ message }) => ({ content: [{ type: 'text', text: `echo: ${message}` }] }),
    );
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, parsed);
  });
}

/** The least an MCP server can be: initialize, tools/list and tools/call of `echo`, JSON, no session. */
function upstreamRaw() {
  const tool = {
    name: 'echo',
    description: 'Answers its message.',
    inputSchema: {
      type: 'object',
      properties: { message: { type: 'string' } },
      required: ['message'],
    },
  };
  const resultOf = (call) => {
    if (call.method === 'initialize')
      return {
        protocolVersion: '2025-06-18',
        capabilities: { tools: {} },
        serverInfo: { name: 'bench-upstream-raw', version: '1.0.0' },
      };
    if (call.method === 'tools/list') return { tools: [tool] };
    if (call.method === 'tools/call' && call.params?.name === 'echo')
      return { content: [{ type: 'text', text: `echo: ${call.params.arguments?.message}` }] };
    return undefined;
  };
  return createServer(async (req, res) => {
    const text = await body(req);
    const call = text === '' ? undefined : JSON.parse(text);
    const method = call?.method ?? `(${req.method})`;
    methods[method] = (methods[method] ?? 0) + 1;
    if (req.method !== 'POST' || call === undefined) {
      res.writeHead(405).end();
      return;
    }
    if (call.id === undefined) {
      res.writeHead(202).end(); // a notification (notifications/initialized)
      return;
    }
    const result = resultOf(call);
    const out = JSON.stringify(
      result === undefined
        ? { jsonrpc: '2.0', id: call.id, error: { code: -32601, message: 'Method not found' } }
        : { jsonrpc: '2.0', id: call.id, result },
    );
    res.writeHead(200, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(out),
    });
    res.end(out);
  });
}

async function toolgate() {
  const { default: pino } = await import('pino');
  const { createLogger } = await import(dist('src/shared/log/logger.js'));
  const { configuredSecrets } = await import(dist('src/cli/secrets.js'));
  const { loadConfig } = await import(dist('src/config/load.js'));
  const { createGateway } = await import(dist('src/gateway/create-gateway.js'));
  const { openSqlite } = await import(dist('src/shared/db/sqlite.js'));
  const { migrateGatewayDatabase } = await import(dist('src/gateway/database.js'));
  const { SubscriptionStore } = await import(dist('src/gateway/auth/subscriptions/store.js'));
  // Quotas far above what the run sends: the bench measures the path, not the limiter's refusals.
  const quota = { limit: 1_000_000, windowSeconds: 60 };
  const config = loadConfig({
    env: {},
    overrides: {
      logging: { level: 'warn' },
      gateway: {
        backends: [
          {
            name: 'upstream',
            mcp: { url: upstreamUrl, toolPrefix: '', securityClass: 'public' },
            identity: { mode: 'none' },
            approve: 'all',
            connections: 64,
          },
        ],
        rateLimit: { anonymous: quota, user: quota, subscriptionDefault: quota, store: 'memory' },
        auth: { devIdentityProvider: { enabled: false } },
      },
    },
  });
  const db = openSqlite({ path: ':memory:' });
  await migrateGatewayDatabase(db);
  const issued = await new SubscriptionStore(db).create({
    application: 'bench-agent',
    environment: config.environment,
  });
  writeFileSync(keyFile, issued.primaryKey);
  const { logger } = createLogger({
    level: 'warn',
    secrets: configuredSecrets(config),
    destination: pino.destination('/dev/null'),
  });
  return createGateway({ config, logger, stores: { db } });
}

function listen(server) {
  server.keepAliveTimeout = 60_000;
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${server.address().port}`)),
  );
}

let url;
if (role === 'upstream') url = `${await listen(await upstream())}/mcp`;
else if (role === 'upstream-raw') url = `${await listen(upstreamRaw())}/mcp`;
else if (role === 'toolgate')
  url = `${await (await toolgate()).listen({ port: 0, host: '127.0.0.1' })}/mcp`;
else throw new Error(`unknown role ${role}`);
process.send({ url });
process.on('message', (message) => {
  if (message === 'cpu') process.send({ cpu: process.cpuUsage() });
  if (message === 'stats') process.send({ methods: { ...methods } });
  if (message === 'stop') process.exit(0);
});
