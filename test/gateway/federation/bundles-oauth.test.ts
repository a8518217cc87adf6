// A real OAuth client signs in to a tool bundle's endpoint (issue 28: "served at /mcp/<name> (its own
// protected-resource metadata and audience)"), end to end against `toolgate start`: the official
// TypeScript SDK client starts from the bundle's URL, meets the 401, reads the bundle's protected-resource
// metadata (RFC 9728), asks the development authorization server for a token for the bundle (RFC 8707
// `resource`), gets one whose audience is the bundle's URL, and calls a user-scoped tool there; the same
// token is refused at the plain endpoint.
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
import { demoForFile } from '../../helpers/process.js';
import { BrowserlessOAuthProvider } from '../../helpers/oauth-client.js';

const demo = demoForFile('toolgate-bundle-oauth-', (scratch) => {
  const configFile = join(scratch, 'toolgate.json');
  writeFileSync(
    configFile,
    JSON.stringify({
      gateway: {
        bundles: {
          accounts: { title: 'Accounts', tools: ['getMyAccountBalance'] },
        },
        auth: { devIdentityProvider: { autoLogin: 'alice' } },
      },
    }),
  );
  return { TOOLGATE_CONFIG: configFile };
});

test('RFC 8707 + RFC 9728: the SDK client signs in to /mcp/<bundle>, gets a token for the bundle, calls a user-scoped tool there', async () => {
  const key = demo.printed.headers['Ocp-Apim-Subscription-Key'];
  assert.ok(key !== undefined);
  const headers = { 'Ocp-Apim-Subscription-Key': key };
  const bundleUrl = `${demo.printed.url}/accounts`;
  const provider = new BrowserlessOAuthProvider();

  const first = new Client({ name: 'toolgate-bundle-oauth', version: '1.0.0' });
  await first.connect(
    new StreamableHTTPClientTransport(new URL(bundleUrl), {
      authProvider: provider,
      requestInit: { headers },
    }),
  );
  try {
    const listed = await first.listTools();
    assert.deepEqual(
      listed.tools.map((t) => t.name),
      ['getMyAccountBalance'],
      'the bundle lists only its tools',
    );
    await assert.rejects(
      first.callTool({ name: 'getMyAccountBalance', arguments: {} }),
      (error: unknown) => error instanceof UnauthorizedError,
    );
  } finally {
    await first.close();
  }
  const authorization = provider.authorizations[0];
  assert.ok(authorization !== undefined, 'the user was sent to sign in');
  assert.equal(
    authorization.searchParams.get('resource'),
    bundleUrl,
    "the client asked for a token for the bundle (read from the bundle's metadata)",
  );
  const callback = provider.callback;
  assert.ok(callback !== undefined && callback.get('code'), 'redirected back with a code');

  const transport = new StreamableHTTPClientTransport(new URL(bundleUrl), {
    authProvider: provider,
    requestInit: { headers },
  });
  await transport.finishAuth(callback);
  const token = provider.stored?.access_token;
  assert.ok(token);
  assert.equal(decodeJwt(token).aud, bundleUrl, 'the audience is the bundle, not /mcp');

  const client = new Client({ name: 'toolgate-bundle-oauth', version: '1.0.0' });
  await client.connect(transport);
  try {
    const balance = await client.callTool({ name: 'getMyAccountBalance', arguments: {} });
    assert.notEqual(balance.isError, true, JSON.stringify(balance.content));
  } finally {
    await client.close();
  }

  // The bundle's token is not one for the plain endpoint (RFC 8707: a token is for one resource).
  const plain = await fetch(demo.printed.url, {
    method: 'POST',
    headers: {
      ...headers,
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });
  assert.equal(plain.status, 401);
  assert.match(
    plain.headers.get('www-authenticate') ?? '',
    /resource_metadata="[^"]*\/\.well-known\/oauth-protected-resource\/mcp"/,
  );
});
