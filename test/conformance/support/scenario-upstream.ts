// An upstream MCP server offering what the MCP conformance suite's server scenarios call by name
// (@modelcontextprotocol/conformance 0.1.16: each scenario's "Server Implementation Requirements" text, e.g.
// tool `test_simple_text`, prompt `test_prompt_with_arguments`, resource `test://static-text`), built on the
// TypeScript SDK (@modelcontextprotocol/sdk 1.32.2, McpServer + StreamableHTTPServerTransport), stateful,
// answering as SSE streams like the SDK's own examples. The suite publishes no server of its own (its npm
// package is the runner only), so scripts/conformance.mjs federates this one, with toolPrefix "", beside the
// MCP reference server (server-everything) in the bundle it tests: the scenarios then exercise what the
// gateway does to an upstream's content blocks, errors, schemas, prompts and resources on their way through.
// Written from the requirement texts, not from the suite's example server.
//
//   const upstream = await startScenarioUpstream();
//   upstream.url          // http://127.0.0.1:PORT/mcp
//   await upstream.close()
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  CreateMessageResultSchema,
  ElicitResultSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type CallToolResult,
  type ElicitRequestFormParams,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';

/** A 1×1 red PNG (the scenarios ask for "a minimal test image"). */
const RED_PIXEL_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

/** A minimal WAV: RIFF header, 8 kHz mono 8-bit PCM, one sample of silence. */
const TINY_WAV = (() => {
  const data = Buffer.from([0x80]);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16); // fmt chunk size
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(8000, 24); // sample rate
  header.writeUInt32LE(8000, 28); // byte rate
  header.writeUInt16LE(1, 32); // block align
  header.writeUInt16LE(8, 34); // bits per sample
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]).toString('base64');
})();

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;
type Content = CallToolResult['content'];

interface ScenarioTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
  handler(args: Record<string, unknown>, extra: Extra): Promise<CallToolResult> | CallToolResult;
}

const NO_ARGUMENTS = { type: 'object', properties: {} };
const text = (value: string): Content => [{ type: 'text', text: value }];
const stringArgument = (name: string, description: string) => ({
  type: 'object',
  properties: { [name]: { type: 'string', description } },
  required: [name],
});

const TOOLS: readonly ScenarioTool[] = [
  {
    name: 'test_simple_text',
    description: 'Returns simple text content (tools-call-simple-text)',
    inputSchema: NO_ARGUMENTS,
    handler: () => ({ content: text('This is a simple text response for testing.') }),
  },
  {
    name: 'test_image_content',
    description: 'Returns image content (tools-call-image)',
    inputSchema: NO_ARGUMENTS,
    handler: () => ({ content: [{ type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' }] }),
  },
  {
    name: 'test_audio_content',
    description: 'Returns audio content (tools-call-audio)',
    inputSchema: NO_ARGUMENTS,
    handler: () => ({ content: [{ type: 'audio', data: TINY_WAV, mimeType: 'audio/wav' }] }),
  },
  {
    name: 'test_embedded_resource',
    description: 'Returns an embedded resource (tools-call-embedded-resource)',
    inputSchema: NO_ARGUMENTS,
    handler: () => ({
      content: [
        {
          type: 'resource',
          resource: {
            uri: 'test://embedded-resource',
            mimeType: 'text/plain',
            text: 'This is an embedded resource content.',
          },
        },
      ],
    }),
  },
  {
    name: 'test_multiple_content_types',
    description: 'Returns text, image and resource content (tools-call-mixed-content)',
    inputSchema: NO_ARGUMENTS,
    handler: () => ({
      content: [
        { type: 'text', text: 'Multiple content types test:' },
        { type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' },
        {
          type: 'resource',
          resource: {
            uri: 'test://mixed-content-resource',
            mimeType: 'application/json',
            text: JSON.stringify({ test: 'data', value: 123 }),
          },
        },
      ],
    }),
  },
  {
    name: 'test_error_handling',
    description: 'Always fails (tools-call-error)',
    inputSchema: NO_ARGUMENTS,
    handler: () => {
      throw new Error('This tool intentionally returns an error for testing');
    },
  },
  {
    name: 'test_tool_with_logging',
    description: 'Sends three info log messages while it runs (tools-call-with-logging)',
    inputSchema: NO_ARGUMENTS,
    handler: async (_args, extra) => {
      const log = (data: string) =>
        extra.sendNotification({
          method: 'notifications/message',
          params: { level: 'info', data },
        });
      await log('Tool execution started');
      await pause(50);
      await log('Tool processing data');
      await pause(50);
      await log('Tool execution completed');
      return { content: text('Tool with logging executed successfully') };
    },
  },
  {
    name: 'test_tool_with_progress',
    description: 'Reports progress 0, 50 and 100 of 100 (tools-call-with-progress)',
    inputSchema: NO_ARGUMENTS,
    handler: async (_args, extra) => {
      const token = extra._meta?.progressToken;
      for (const progress of [0, 50, 100]) {
        if (token !== undefined)
          await extra.sendNotification({
            method: 'notifications/progress',
            params: { progressToken: token, progress, total: 100 },
          });
        if (progress < 100) await pause(50);
      }
      return { content: text(String(token ?? 'no progress token')) };
    },
  },
  {
    name: 'test_sampling',
    description: 'Asks the client for an LLM sampling (tools-call-sampling)',
    inputSchema: stringArgument('prompt', 'The prompt to send to the LLM'),
    handler: async (args, extra) => {
      const result = await extra.sendRequest(
        {
          method: 'sampling/createMessage',
          params: {
            messages: [{ role: 'user', content: { type: 'text', text: String(args.prompt) } }],
            maxTokens: 100,
          },
        },
        CreateMessageResultSchema,
      );
      const answer =
        result.content.type === 'text' ? result.content.text : JSON.stringify(result.content);
      return { content: text(`LLM response: ${answer}`) };
    },
  },
  {
    name: 'test_elicitation',
    description: 'Asks the user for input through the client (tools-call-elicitation)',
    inputSchema: stringArgument('message', 'The message to show the user'),
    handler: async (args, extra) => {
      const result = await extra.sendRequest(
        {
          method: 'elicitation/create',
          params: {
            message: String(args.message),
            requestedSchema: {
              type: 'object',
              properties: {
                username: { type: 'string', description: "User's response" },
                email: { type: 'string', description: "User's email address" },
              },
              required: ['username', 'email'],
            },
          },
        },
        ElicitResultSchema,
      );
      return {
        content: text(
          `User response: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`,
        ),
      };
    },
  },
  {
    name: 'test_elicitation_sep1034_defaults',
    description:
      'Elicitation with a default for every primitive type (elicitation-sep1034-defaults)',
    inputSchema: NO_ARGUMENTS,
    handler: (_args, extra) =>
      elicit(extra, 'Please review and update the form fields with defaults', {
        name: { type: 'string', description: 'User name', default: 'John Doe' },
        age: { type: 'integer', description: 'User age', default: 30 },
        score: { type: 'number', description: 'User score', default: 95.5 },
        status: {
          type: 'string',
          description: 'User status',
          enum: ['active', 'inactive', 'pending'],
          default: 'active',
        },
        verified: { type: 'boolean', description: 'Verification status', default: true },
      }),
  },
  {
    name: 'test_elicitation_sep1330_enums',
    description: 'Elicitation with the five enum forms (elicitation-sep1330-enums)',
    inputSchema: NO_ARGUMENTS,
    handler: (_args, extra) =>
      elicit(extra, 'Please select options from the enum fields', {
        untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
        titledSingle: {
          type: 'string',
          oneOf: [
            { const: 'value1', title: 'First Option' },
            { const: 'value2', title: 'Second Option' },
            { const: 'value3', title: 'Third Option' },
          ],
        },
        legacyEnum: {
          type: 'string',
          enum: ['opt1', 'opt2', 'opt3'],
          enumNames: ['Option One', 'Option Two', 'Option Three'],
        },
        untitledMulti: {
          type: 'array',
          items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
        },
        titledMulti: {
          type: 'array',
          items: {
            anyOf: [
              { const: 'value1', title: 'First Choice' },
              { const: 'value2', title: 'Second Choice' },
              { const: 'value3', title: 'Third Choice' },
            ],
          },
        },
      }),
  },
  {
    name: 'json_schema_2020_12_tool',
    description: 'Tool with JSON Schema 2020-12 features (json-schema-2020-12, SEP-1613)',
    inputSchema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: {
        address: {
          type: 'object',
          properties: { street: { type: 'string' }, city: { type: 'string' } },
        },
      },
      properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
      additionalProperties: false,
    },
    handler: (args) => ({ content: text(`received ${JSON.stringify(args)}`) }),
  },
];

/** Asks the client for input with the given properties (elicitation/create), answers what came back. */
async function elicit(
  extra: Extra,
  message: string,
  properties: ElicitRequestFormParams['requestedSchema']['properties'],
): Promise<CallToolResult> {
  const result = await extra.sendRequest(
    {
      method: 'elicitation/create',
      params: { message, requestedSchema: { type: 'object', properties } },
    },
    ElicitResultSchema,
  );
  return {
    content: text(
      `Elicitation completed: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`,
    ),
  };
}

export interface ScenarioUpstream {
  readonly url: string;
  close(): Promise<void>;
}

function build(): McpServer {
  const server = new McpServer(
    { name: 'conformance-scenarios', version: '1.0.0' },
    {
      capabilities: {
        tools: {},
        resources: { subscribe: true },
        prompts: {},
        logging: {},
        completions: {},
      },
    },
  );

  // Tools (tools-call-* and json-schema-2020-12 scenarios), on the low-level handlers: McpServer's
  // registerTool derives every inputSchema from zod (draft-07), and json-schema-2020-12 (SEP-1613) needs
  // a 2020-12 schema with $defs listed as written.
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: TOOLS.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
  }));
  server.server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = TOOLS.find((t) => t.name === request.params.name);
    if (tool === undefined)
      throw new McpError(ErrorCode.InvalidParams, `Tool ${request.params.name} not found`);
    try {
      return await tool.handler(request.params.arguments ?? {}, extra);
    } catch (error) {
      // A tool's failure is a result with isError (tools spec, "Error Handling"), not a JSON-RPC error.
      return {
        isError: true,
        content: [{ type: 'text', text: error instanceof Error ? error.message : String(error) }],
      };
    }
  });

  // Resources (resources-* scenarios).
  server.registerResource(
    'static-text',
    'test://static-text',
    { description: 'A static text resource', mimeType: 'text/plain' },
    (uri) => ({
      contents: [
        {
          uri: uri.href,
          mimeType: 'text/plain',
          text: 'This is the content of the static text resource.',
        },
      ],
    }),
  );
  server.registerResource(
    'static-binary',
    'test://static-binary',
    { description: 'A static binary resource (a PNG)', mimeType: 'image/png' },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: 'image/png', blob: RED_PIXEL_PNG }] }),
  );
  server.registerResource(
    'watched-resource',
    'test://watched-resource',
    { description: 'A resource clients may subscribe to', mimeType: 'text/plain' },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'watched' }] }),
  );
  server.registerResource(
    'template',
    new ResourceTemplate('test://template/{id}/data', { list: undefined }),
    { description: 'Data for one id', mimeType: 'application/json' },
    (uri, { id }) => ({
      contents: [
        {
          uri: uri.href,
          mimeType: 'application/json',
          text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${String(id)}` }),
        },
      ],
    }),
  );

  // resources-subscribe / resources-unsubscribe: accepted and answered {} (no update is ever sent: the
  // resources do not change).
  server.server.setRequestHandler(SubscribeRequestSchema, () => ({}));
  server.server.setRequestHandler(UnsubscribeRequestSchema, () => ({}));
  // completion-complete: the values of test_prompt_with_arguments's arguments that start with the input.
  server.server.setRequestHandler(CompleteRequestSchema, (request) => {
    const values = ['paris', 'park', 'party', 'test', 'testing'].filter((v) =>
      v.startsWith(request.params.argument.value),
    );
    return { completion: { values, total: values.length, hasMore: false } };
  });

  // Prompts (prompts-* scenarios).
  server.registerPrompt(
    'test_simple_prompt',
    { description: 'A prompt without arguments (prompts-get-simple)' },
    () => ({
      messages: [
        { role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } },
      ],
    }),
  );
  server.registerPrompt(
    'test_prompt_with_arguments',
    {
      description: 'A prompt with two arguments (prompts-get-with-args)',
      argsSchema: {
        arg1: z.string().describe('First test argument'),
        arg2: z.string().describe('Second test argument'),
      },
    },
    ({ arg1, arg2 }) => ({
      messages: [
        {
          role: 'user',
          content: { type: 'text', text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` },
        },
      ],
    }),
  );
  server.registerPrompt(
    'test_prompt_with_embedded_resource',
    {
      description: 'A prompt embedding a resource (prompts-get-embedded-resource)',
      argsSchema: { resourceUri: z.string().describe('URI of the resource to embed') },
    },
    ({ resourceUri }) => ({
      messages: [
        {
          role: 'user',
          content: {
            type: 'resource',
            resource: {
              uri: resourceUri,
              mimeType: 'text/plain',
              text: 'Embedded resource content for testing.',
            },
          },
        },
        {
          role: 'user',
          content: { type: 'text', text: 'Please process the embedded resource above.' },
        },
      ],
    }),
  );
  server.registerPrompt(
    'test_prompt_with_image',
    { description: 'A prompt with an image (prompts-get-with-image)' },
    () => ({
      messages: [
        { role: 'user', content: { type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' } },
        { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
      ],
    }),
  );
  return server;
}

export async function startScenarioUpstream(): Promise<ScenarioUpstream> {
  const sessions = new Map<
    string,
    { server: McpServer; transport: StreamableHTTPServerTransport }
  >();

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const raw = await readBody(req);
    const body: unknown = raw === '' ? undefined : JSON.parse(raw);
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const live = sessions.get(sessionId);
      if (live === undefined) {
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
    const server = build();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, { server, transport }),
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  };

  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: async () => {
      const live = [...sessions.values()];
      sessions.clear();
      await Promise.allSettled(live.map((l) => l.server.close()));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
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
