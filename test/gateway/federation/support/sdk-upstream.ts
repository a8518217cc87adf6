// An upstream MCP server built with the TypeScript SDK (@modelcontextprotocol/sdk 1.32.2: McpServer and
// StreamableHTTPServerTransport) on 127.0.0.1, for the federation tests (issue 28). Reusable:
//
//   const upstream = await startSdkUpstream({ stateful: true, json: false });
//   upstream.url                 // http://127.0.0.1:PORT/mcp
//   upstream.calls               // every HTTP request received: JSON-RPC method, headers, session id, status
//   upstream.setTools([...])     // replace the tool list now (stateful: sends notifications/tools/list_changed)
//   upstream.forgetSessions()    // drop every session: the next request with an old id gets 404
//   upstream.sessionIds()        // the live session ids (stateful)
//   await upstream.close()
//
// Options: `stateful` (default true: session ids, one McpServer per session; false: a fresh server per
// request, no session), `json` (default false: answers as SSE streams; true: application/json), `tools`
// (default DEFAULT_TOOLS: echo, add with structured output, slow; a FixtureTool's handler gets the
// arguments and `extra.sendRequest` to send the client a request such as ping or roots/list), `authorize` (called with each request's
// headers; answering a refusal makes the server reply 401 with that WWW-Authenticate, before the SDK
// sees the request). Every server offers the resource `info://server`, the template `item://{id}` and the
// prompt `greet` (argument `name`).
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';

/** A tool of the fixture: its schema as a zod raw shape, its answer from its arguments. */
export interface FixtureTool {
  readonly name: string;
  readonly description?: string;
  readonly inputSchema?: z.ZodRawShape;
  readonly outputSchema?: z.ZodRawShape;
  readonly handler: (
    args: Record<string, unknown>,
    extra: FixtureToolExtra,
  ) => Promise<FixtureToolResult> | FixtureToolResult;
}

/** What a fixture tool can do besides answering: send a request to the client (the SDK's sendRequest). */
export interface FixtureToolExtra {
  sendRequest(
    request: { method: string; params?: Record<string, unknown> },
    resultSchema: z.ZodType,
    options?: { timeout?: number },
  ): Promise<unknown>;
}

export interface FixtureToolResult {
  readonly content: { type: 'text'; text: string }[];
  readonly structuredContent?: Record<string, unknown>;
  readonly isError?: boolean;
}

/** What the fixture saw of one HTTP request. */
export interface RecordedCall {
  readonly httpMethod: string;
  /** The JSON-RPC method of a POST (undefined for GET/DELETE and responses). */
  readonly method?: string | undefined;
  readonly headers: IncomingHttpHeaders;
  readonly sessionId?: string | undefined;
  /** The HTTP status the fixture answered itself (401, 404), else undefined (the SDK answered). */
  refusedWith?: number | undefined;
}

export type Authorize = (
  headers: IncomingHttpHeaders,
) => true | { readonly wwwAuthenticate: string };

export interface SdkUpstreamOptions {
  readonly stateful?: boolean;
  readonly json?: boolean;
  readonly tools?: readonly FixtureTool[];
  readonly authorize?: Authorize;
  /** Reported as serverInfo.name. */
  readonly name?: string;
}

export interface SdkUpstream {
  readonly url: string;
  readonly calls: RecordedCall[];
  setTools(tools: readonly FixtureTool[]): void;
  forgetSessions(): Promise<void>;
  sessionIds(): string[];
  close(): Promise<void>;
}

/** echo (text), add (structured output with an outputSchema) and slow (waits `ms` before answering). */
export const DEFAULT_TOOLS: readonly FixtureTool[] = [
  {
    name: 'echo',
    description: 'Answers its message.',
    inputSchema: { message: z.string() },
    handler: (args) => ({ content: [{ type: 'text', text: `echo: ${String(args.message)}` }] }),
  },
  {
    name: 'add',
    description: 'Adds two numbers.',
    inputSchema: { a: z.number(), b: z.number() },
    outputSchema: { sum: z.number() },
    handler: (args) => {
      const sum = Number(args.a) + Number(args.b);
      return { content: [{ type: 'text', text: String(sum) }], structuredContent: { sum } };
    },
  },
  {
    name: 'slow',
    description: 'Waits the given milliseconds, then answers.',
    inputSchema: { ms: z.number() },
    handler: async (args) => {
      await new Promise((resolve) => setTimeout(resolve, Number(args.ms)));
      return { content: [{ type: 'text', text: `waited ${String(args.ms)} ms` }] };
    },
  },
];

interface Live {
  readonly server: McpServer;
  readonly transport: StreamableHTTPServerTransport;
  registered: RegisteredTool[];
}

export async function startSdkUpstream(options: SdkUpstreamOptions = {}): Promise<SdkUpstream> {
  const stateful = options.stateful ?? true;
  let tools: readonly FixtureTool[] = options.tools ?? DEFAULT_TOOLS;
  const sessions = new Map<string, Live>();
  const calls: RecordedCall[] = [];

  const register = (live: Live): void => {
    for (const tool of live.registered) tool.remove();
    live.registered = tools.map((tool) =>
      live.server.registerTool(
        tool.name,
        {
          description: tool.description,
          // Always a shape (empty for none): the SDK then calls back with (args, extra).
          inputSchema: tool.inputSchema ?? {},
          ...(tool.outputSchema === undefined ? {} : { outputSchema: tool.outputSchema }),
        },
        // The SDK types the callback from the schema; the fixture's handlers take plain arguments.
        ((args: Record<string, unknown>, extra: FixtureToolExtra) =>
          tool.handler(args, extra)) as never,
      ),
    );
  };

  const build = (): Live => {
    const server = new McpServer(
      { name: options.name ?? 'sdk-upstream', version: '1.0.0' },
      { capabilities: { tools: { listChanged: true }, resources: {}, prompts: {} } },
    );
    server.registerResource(
      'info',
      'info://server',
      { description: 'About this server', mimeType: 'text/plain' },
      (uri) => ({ contents: [{ uri: uri.href, text: 'sdk upstream', mimeType: 'text/plain' }] }),
    );
    server.registerResource(
      'item',
      new ResourceTemplate('item://{id}', { list: undefined }),
      { description: 'One item by id', mimeType: 'application/json' },
      (uri, variables) => ({
        contents: [{ uri: uri.href, text: JSON.stringify({ id: variables.id }) }],
      }),
    );
    server.registerPrompt(
      'greet',
      { description: 'A greeting', argsSchema: { name: z.string() } },
      ({ name }) => ({
        messages: [{ role: 'user', content: { type: 'text', text: `Hello, ${name}!` } }],
      }),
    );
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: stateful ? () => randomUUID() : undefined,
      enableJsonResponse: options.json ?? false,
      onsessioninitialized: (id) => void sessions.set(id, live),
    });
    const live: Live = { server, transport, registered: [] };
    register(live);
    return live;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const raw = await readBody(req);
    let body: unknown;
    try {
      body = raw === '' ? undefined : JSON.parse(raw);
    } catch {
      body = undefined;
    }
    const sessionId = first(req.headers['mcp-session-id']);
    const call: RecordedCall = {
      httpMethod: req.method ?? '',
      method:
        typeof body === 'object' && body !== null && 'method' in body
          ? String((body as { method: unknown }).method)
          : undefined,
      headers: req.headers,
      sessionId,
    };
    calls.push(call);
    const verdict = options.authorize?.(req.headers) ?? true;
    if (verdict !== true) {
      call.refusedWith = 401;
      res.writeHead(401, {
        'www-authenticate': verdict.wwwAuthenticate,
        'content-type': 'application/json',
      });
      res.end(JSON.stringify({ error: 'invalid_token' }));
      return;
    }
    if (!stateful) {
      // The SDK's stateless pattern: a server and transport per request.
      const live = build();
      res.on('close', () => void live.server.close());
      await live.server.connect(live.transport);
      await live.transport.handleRequest(req, res, body);
      return;
    }
    if (sessionId !== undefined) {
      const live = sessions.get(sessionId);
      if (live === undefined) {
        // Streamable HTTP, "Session Management": an unknown or expired session id is answered 404.
        call.refusedWith = 404;
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: null,
            error: { code: -32001, message: 'Session not found' },
          }),
        );
        return;
      }
      await live.transport.handleRequest(req, res, body);
      if (req.method === 'DELETE') sessions.delete(sessionId);
      return;
    }
    // No session id: the SDK's transport accepts only initialize here (it answers 400 otherwise).
    const live = build();
    await live.server.connect(live.transport);
    await live.transport.handleRequest(req, res, body);
  };

  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;

  const forgetSessions = async (): Promise<void> => {
    const live = [...sessions.values()];
    sessions.clear();
    await Promise.allSettled(live.map((l) => l.server.close()));
  };

  return {
    url: `http://127.0.0.1:${port}/mcp`,
    calls,
    setTools(next) {
      tools = next;
      for (const live of sessions.values()) register(live); // registerTool/remove send list_changed
    },
    forgetSessions,
    sessionIds: () => [...sessions.keys()],
    close: async () => {
      await forgetSessions();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });
}
