#!/usr/bin/env node
// A small MCP server of a team's own, for the federation example (examples/federation/README.md): each
// user's notes, kept in memory. It is written with the MCP TypeScript SDK (its low-level Server, stateless
// Streamable HTTP) and knows nothing of toolgate except how the gateway says who the user is: identity mode
// `headers` — X-User-Id, trusted only when X-Toolgate-Gateway-Key carries the shared secret
// (NOTES_GATEWAY_KEY). A request without it is refused, so a client that reaches this server directly
// cannot claim to be someone else.
//   NOTES_GATEWAY_KEY=… node examples/federation/notes-server.mjs [port]   (default 3002; 0: any free port)
import { createServer } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';

const secret = process.env.NOTES_GATEWAY_KEY ?? '';
if (secret.length < 16) {
  console.error(
    'notes-server: set NOTES_GATEWAY_KEY (16 characters or more), as the gateway config does',
  );
  process.exit(2);
}
const port = Number(process.argv[2] ?? 3002);

/** user id → notes, oldest first */
const notes = new Map();

const TOOLS = [
  {
    name: 'add_note',
    title: 'Add a note',
    description: 'Keeps a short note for the signed-in user.',
    inputSchema: {
      type: 'object',
      properties: { text: { type: 'string', minLength: 1, maxLength: 500 } },
      required: ['text'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: false, idempotentHint: false, openWorldHint: false },
  },
  {
    name: 'list_notes',
    title: 'List my notes',
    description: "The signed-in user's notes, oldest first.",
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    outputSchema: {
      type: 'object',
      properties: { notes: { type: 'array', items: { type: 'string' } } },
      required: ['notes'],
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
];

function sameSecret(given) {
  const a = Buffer.from(String(given ?? ''));
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The user the gateway vouches for; `anonymous` for the gateway's own requests (its tool, resource and
 * prompt lists carry the key but no user); undefined when the request does not come from the gateway.
 */
function userOf(headers) {
  if (!sameSecret(headers['x-toolgate-gateway-key'])) return undefined;
  const user = headers['x-user-id'];
  return typeof user === 'string' && user !== '' ? user : 'anonymous';
}

function notesServer(user) {
  const server = new Server(
    { name: 'notes', version: '1.0.0' },
    { capabilities: { tools: {}, resources: {}, prompts: {} } },
  );
  const mine = () => notes.get(user) ?? [];
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: args = {} } = request.params;
    if (name === 'add_note') {
      if (user === 'anonymous')
        return { isError: true, content: [{ type: 'text', text: 'Sign in to keep notes.' }] };
      notes.set(user, [...mine(), String(args.text)]);
      return { content: [{ type: 'text', text: `Noted (${mine().length} notes).` }] };
    }
    if (name === 'list_notes') {
      const list = mine();
      return {
        content: [{ type: 'text', text: JSON.stringify({ notes: list }) }],
        structuredContent: { notes: list },
      };
    }
    return { isError: true, content: [{ type: 'text', text: `Unknown tool: ${name}` }] };
  });
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: [
      {
        uri: 'notes://me/all',
        name: 'my-notes',
        title: 'All my notes',
        mimeType: 'text/plain',
      },
    ],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    if (request.params.uri !== 'notes://me/all')
      throw new Error(`Resource not found: ${request.params.uri}`);
    return {
      contents: [{ uri: 'notes://me/all', mimeType: 'text/plain', text: mine().join('\n') }],
    };
  });
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({
    prompts: [
      {
        name: 'summarize',
        title: 'Summarize my notes',
        description: 'Asks the model for a summary of the notes, in a given tone.',
        arguments: [{ name: 'tone', description: 'e.g. brief, formal', required: false }],
      },
    ],
  }));
  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    if (request.params.name !== 'summarize')
      throw new Error(`Unknown prompt: ${request.params.name}`);
    const tone = request.params.arguments?.tone ?? 'brief';
    return {
      messages: [
        {
          role: 'user',
          content: { type: 'text', text: `Summarize these notes (${tone}):\n${mine().join('\n')}` },
        },
      ],
    };
  });
  return server;
}

const http = createServer(async (req, res) => {
  if (req.url !== '/mcp') {
    res.writeHead(404).end();
    return;
  }
  const user = userOf(req.headers);
  if (user === undefined) {
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({ error: 'requests come through the gateway (X-Toolgate-Gateway-Key)' }),
    );
    return;
  }
  // Stateless: one server and transport per request, nothing kept between requests but the notes.
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  const server = notesServer(user);
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res);
});
http.listen(port, '127.0.0.1', () => {
  const address = http.address();
  console.log(`notes MCP server listening on http://127.0.0.1:${address.port}/mcp`);
});
const stop = () => http.close(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
