// Child process of bench/compare/run.mjs: one server under test, on port 0, reporting its address and
// answering CPU-time questions over IPC (so each process's own CPU per call can be measured).
//   node servers.mjs backend
//   node servers.mjs passthrough <backendOrigin>
//   node servers.mjs sdk <backendOrigin>
//   node servers.mjs toolgate-lean <backendOrigin> <key-file>
//   node servers.mjs toolgate-full <backendOrigin> <key-file> <public-jwk-json> [<redis-url>]
//   node servers.mjs toolgate-governed <backendOrigin> <key-file> <public-jwk-json>  (full + rules matching none)
// Every MCP server calls the same backend operation, POST /api/v1/payments with the call's body.
import { createServer } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Pool } from 'undici';

const root = new URL('../..', import.meta.url).pathname;
const dist = (p) => join(root, 'dist', p);
const [role, backendOrigin, keyFile, publicJwk, redisUrl] = process.argv.slice(2);
const PATH = '/api/v1/payments';

/** Reads a request body to the end. */
function body(req) {
  return new Promise((resolve) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

/** The backend: a trivial node:http service answering 201 with the payment it was sent. */
function backend() {
  return createServer(async (req, res) => {
    const text = await body(req);
    const input = JSON.parse(text);
    const out = JSON.stringify({
      id: 'PO-1',
      status: 'INITIATED',
      amount: input.amount,
      payee: input.payee,
    });
    res.writeHead(201, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(out),
    });
    res.end(out);
  });
}

/** One upstream call through undici's dispatch API, the body collected: the least a proxy can do. */
function dispatch(pool, payload) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let status = 0;
    pool.dispatch(
      {
        method: 'POST',
        path: PATH,
        headers: { 'content-type': 'application/json' },
        body: payload,
      },
      {
        onConnect() {},
        onHeaders(statusCode) {
          status = statusCode;
          return true;
        },
        onData(chunk) {
          chunks.push(chunk);
          return true;
        },
        onComplete() {
          resolve({ status, text: Buffer.concat(chunks).toString('utf8') });
        },
        onError: reject,
      },
    );
  });
}

/** The floor: node:http → parse the JSON-RPC call → undici dispatch → a JSON-RPC result, nothing else. */
function passthrough() {
  const pool = new Pool(backendOrigin, { connections: 64 });
  return createServer(async (req, res) => {
    const call = JSON.parse(await body(req));
    const upstream = await dispatch(pool, JSON.stringify(call.params.arguments.body));
    const out = `{"jsonrpc":"2.0","id":${JSON.stringify(call.id)},"result":{"content":[{"type":"text","text":${JSON.stringify(upstream.text)}}],"structuredContent":${upstream.text},"isError":${upstream.status >= 400}}}`;
    res.writeHead(200, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(out),
    });
    res.end(out);
  });
}

/**
 * A stateless MCP server on the official TypeScript SDK, built as the SDK's own stateless example builds
 * it: a new McpServer and transport per request, the tool's input described with zod.
 */
async function sdk() {
  const { McpServer } = await import('@modelcontextprotocol/sdk/server/mcp.js');
  const { StreamableHTTPServerTransport } =
    await import('@modelcontextprotocol/sdk/server/streamableHttp.js');
  const { z } = await import('zod');
  const pool = new Pool(backendOrigin, { connections: 64 });
  const amount = z.object({
    value: z.string().regex(/^[0-9]+(\.[0-9]{1,2})?$/),
    currency: z.string(),
  });
  return createServer(async (req, res) => {
    const parsed = JSON.parse(await body(req));
    const server = new McpServer({ name: 'bench-sdk', version: '1.0.0' });
    server.registerTool(
      'createPayment',
      {
        description: 'Creates a payment order.',
        inputSchema: { body: z.object({ amount, payee: z.string().min(1) }).strict() },
      },
      async ({ body: payment }) => {
        const upstream = await dispatch(pool, JSON.stringify(payment));
        return {
          content: [{ type: 'text', text: upstream.text }],
          structuredContent: JSON.parse(upstream.text),
          isError: upstream.status >= 400,
        };
      },
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

/**
 * toolgate built by createGateway as the service builds it, on an in-memory database, in front of the
 * backend (the fixture OpenAPI document's createPayment). lean: subscription key only, anonymous callers,
 * warn logs. full: key + JWT (static ES256 key, verified-token cache) + the per-user quota + identity
 * headers with the shared secret + one info access line per request (through the service's redacting
 * logger, written to /dev/null).
 */
const governed = role === 'toolgate-governed';
const NO_MATCH_POLICIES = [
  {
    id: 'confirm-over-a-million',
    when: 'has(money.base) && money.base > 1000000.0',
    effect: 'confirm',
    message: 'Payments above 1,000,000 EUR need your confirmation.',
  },
  {
    id: 'no-deletes',
    when: 'has(tool.annotations.destructiveHint) && tool.annotations.destructiveHint',
    effect: 'deny',
    message: 'Agents may not delete.',
  },
];

async function toolgate(full) {
  const { default: pino } = await import('pino');
  const { createLogger } = await import(dist('src/shared/log/logger.js'));
  const { configuredSecrets } = await import(dist('src/cli/secrets.js'));
  const { loadConfig } = await import(dist('src/config/load.js'));
  const { createGateway } = await import(dist('src/gateway/create-gateway.js'));
  const { openSqlite } = await import(dist('src/shared/db/sqlite.js'));
  const { migrateGatewayDatabase } = await import(dist('src/gateway/database.js'));
  const { SubscriptionStore } = await import(dist('src/gateway/auth/subscriptions/store.js'));
  const quota = { limit: 1_000_000, windowSeconds: 60 };
  const config = loadConfig({
    env: {},
    overrides: {
      logging: { level: full ? 'info' : 'warn' },
      gateway: {
        backends: [
          {
            name: 'bench',
            baseUrl: `${backendOrigin}/api/v1`,
            openapi: { file: join(root, 'test/fixtures/openapi/fixture-backend.yaml') },
            approve: 'all',
            connections: 64,
            identity: full
              ? { mode: 'headers', sharedSecret: 'bench-shared-secret-0123456789' }
              : { mode: 'headers' },
            // Governed actions (issue 25): createPayment moves money (its amount is converted for the rules).
            tools: governed
              ? {
                  createPayment: {
                    money: { amount: '/body/amount/value', currency: '/body/amount/currency' },
                  },
                }
              : {},
          },
        ],
        // toolgate-governed: toolgate full with rules in force that match none of the bench's calls (the
        // governed step runs: the call is built, its amount converted, the rules evaluated).
        policies: governed ? NO_MATCH_POLICIES : [],
        rateLimit: {
          user: quota,
          anonymous: quota,
          subscriptionDefault: quota,
          // With a Redis URL: the shared store, under a prefix of this run's own.
          ...(redisUrl
            ? { store: 'redis', redis: { url: redisUrl, keyPrefix: `bench:${process.pid}:` } }
            : { store: 'memory' }),
        },
        auth: {
          devIdentityProvider: { enabled: false },
          ...(full
            ? {
                jwt: {
                  mode: 'conditional',
                  issuer: 'https://idp.bench.example',
                  audience: 'toolgate-bench',
                  staticKeys: [{ jwk: JSON.parse(publicJwk), alg: 'ES256' }],
                  algorithms: ['ES256'],
                },
              }
            : {}),
        },
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
  // The redacting logger `toolgate gateway` builds (createLogger, the configuration's secrets
  // registered with its scrubber), writing to /dev/null.
  const { logger } = createLogger({
    level: full ? 'info' : 'warn',
    secrets: configuredSecrets(config),
    destination: pino.destination('/dev/null'),
  });
  const app = await createGateway({ config, logger, stores: { db } });
  return app;
}

/** Listens on port 0 and returns the origin. */
function listen(server) {
  server.keepAliveTimeout = 60_000;
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${server.address().port}`)),
  );
}

let url;
if (role === 'backend') url = await listen(backend());
else if (role === 'passthrough') url = await listen(passthrough());
else if (role === 'sdk') url = await listen(await sdk());
else if (role === 'toolgate-lean' || role === 'toolgate-full' || role === 'toolgate-governed')
  url = await (await toolgate(role !== 'toolgate-lean')).listen({ port: 0, host: '127.0.0.1' });
else throw new Error(`unknown role ${role}`);
process.send({ url });
process.on('message', (message) => {
  if (message === 'cpu') process.send({ cpu: process.cpuUsage() });
  if (message === 'stop') process.exit(0);
});
