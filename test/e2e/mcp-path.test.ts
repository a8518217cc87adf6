// A gateway whose MCP endpoint is not at /mcp (`gateway.mcp.path: /agents/mcp`), end to end through
// `toolgate start --json`: the printed client configuration names the endpoint at its path; the RFC 9728
// protected-resource metadata lives at the path-suffixed well-known URL and names it as its resource, and
// the 401 challenge points there; a client that starts from the printed URL signs in at the development
// authorization server for that resource (RFC 8707) and calls a user-scoped tool with the token it gets,
// and so does the sample token the banner prints.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  Client,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import { decodeJwt } from 'jose';
import { demoForFile } from '../helpers/process.js';
import { BrowserlessOAuthProvider } from '../helpers/oauth-client.js';

const PATH = '/agents/mcp';
const demo = demoForFile('toolgate-mcp-path-', (scratch) => {
  const configFile = join(scratch, 'toolgate.json');
  writeFileSync(
    configFile,
    JSON.stringify({
      gateway: { mcp: { path: PATH }, auth: { devIdentityProvider: { autoLogin: 'alice' } } },
    }),
  );
  return { TOOLGATE_CONFIG: configFile };
});

const endpoint = () => demo.printed.url;
const origin = () => new URL(endpoint()).origin;
const metadataUrl = () => `${origin()}/.well-known/oauth-protected-resource${PATH}`;

function keyOnly(): Record<string, string> {
  const key = demo.printed.headers['Ocp-Apim-Subscription-Key'];
  assert.ok(key !== undefined, 'the printed configuration carries the subscription key');
  return { 'Ocp-Apim-Subscription-Key': key };
}

async function balanceOf(client: Client): Promise<string[]> {
  const result = await client.callTool({ name: 'getMyAccountBalance', arguments: {} });
  assert.notEqual(result.isError, true, JSON.stringify(result.content));
  return (result.structuredContent as { items: { accountId: string }[] }).items.map(
    (a) => a.accountId,
  );
}

test('the startup summary and the client configuration name the MCP endpoint at its configured path', () => {
  assert.equal(new URL(endpoint()).pathname, PATH);
  assert.equal(demo.summary.mcpUrl, endpoint());
  assert.equal(demo.summary.authorizationServer, `${origin()}/dev-idp`);
  const sample = String(demo.summary.sampleToken);
  assert.equal(decodeJwt(sample).aud, endpoint(), 'the sample token is for this resource');
  assert.equal(demo.printed.headers.Authorization, `Bearer ${sample}`);
});

test('RFC 9728: the protected-resource metadata names the endpoint, and the challenge points at it', async () => {
  const metadata = await fetch(metadataUrl());
  assert.equal(metadata.status, 200);
  const document = (await metadata.json()) as Record<string, unknown>;
  assert.equal(document.resource, endpoint());
  assert.deepEqual(document.authorization_servers, [`${origin()}/dev-idp`]);

  // A user-scoped tool called with the subscription key alone: 401 naming the metadata document.
  const response = await fetch(endpoint(), {
    method: 'POST',
    headers: {
      ...keyOnly(),
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'getMyAccountBalance', arguments: {} },
    }),
  });
  assert.equal(response.status, 401);
  const challenge = response.headers.get('www-authenticate') ?? '';
  assert.ok(
    challenge.includes(`resource_metadata="${metadataUrl()}"`),
    `the challenge names ${metadataUrl()}: ${challenge}`,
  );
});

test('MCP authorization: a client starting from the printed URL gets a token for it and calls a user-scoped tool', async () => {
  const provider = new BrowserlessOAuthProvider();
  const first = new Client({ name: 'toolgate-mcp-path-e2e', version: '1.0.0' });
  await first.connect(
    new StreamableHTTPClientTransport(new URL(endpoint()), {
      authProvider: provider,
      requestInit: { headers: keyOnly() },
    }),
  );
  try {
    await assert.rejects(
      first.callTool({ name: 'getMyAccountBalance', arguments: {} }),
      (error: unknown) => error instanceof UnauthorizedError,
    );
  } finally {
    await first.close();
  }
  const authorization = provider.authorizations[0];
  assert.ok(authorization !== undefined, 'the client was sent to sign in');
  assert.equal(authorization.searchParams.get('resource'), endpoint());
  const callback = provider.callback;
  assert.ok(callback !== undefined && callback.get('code'), 'redirected back with a code');

  const transport = new StreamableHTTPClientTransport(new URL(endpoint()), {
    authProvider: provider,
    requestInit: { headers: keyOnly() },
  });
  await transport.finishAuth(callback);
  const token = provider.stored?.access_token;
  assert.ok(token !== undefined);
  assert.equal(decodeJwt(token).aud, endpoint(), 'RFC 8707: the audience is the endpoint');
  const client = new Client({ name: 'toolgate-mcp-path-e2e', version: '1.0.0' });
  await client.connect(transport);
  const sample = new Client({ name: 'toolgate-mcp-path-e2e-sample', version: '1.0.0' });
  await sample.connect(
    new StreamableHTTPClientTransport(new URL(endpoint()), {
      requestInit: { headers: demo.printed.headers },
    }),
  );
  try {
    const signedIn = await balanceOf(client);
    assert.ok(signedIn.length > 0);
    assert.deepEqual(await balanceOf(sample), signedIn, 'the sample token acts for alice too');
  } finally {
    await client.close();
    await sample.close();
  }
});
