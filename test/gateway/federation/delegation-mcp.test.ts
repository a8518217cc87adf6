// Identity mode delegation through the gateway's own endpoint (issue 28: "the user is sent through that
// server's authorization flow once (… otherwise a link in the tool result), the user's upstream tokens are
// stored encrypted per user and refreshed, and each call carries the token of the user on whose behalf the
// agent acts"; "an upstream that needs OAuth sign-in (an oidc-provider in the test) reached through per-user
// delegation with two users whose tokens never cross").
//
// Agents call `POST /mcp` with a subscription key and Alice's or Bob's gateway token. The upstream (TypeScript
// SDK) accepts only live access tokens of its own authorization server (oidc-provider, support/upstream-as.ts)
// for calls, and its discovery credential (mcp.headers) for the gateway's own lists. Before connecting, a call
// answers with the sign-in link and never reaches the upstream; after Alice and Bob connect in their own
// browsers, each call carries that user's upstream token and gets that user's data.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingHttpHeaders } from 'node:http';
import { z } from 'zod';
import { createDevIdp } from '../../../src/gateway/auth/dev-idp/idp.js';
import { SubscriptionStore } from '../../../src/gateway/auth/subscriptions/store.js';
import { MCP_HEADERS } from '../support/gateway.js';
import { Browser } from './support/browser.js';
import { devIdpMetadata } from './support/dev-idp-user.js';
import { BACKEND, startDelegationWorld, type DelegationWorld } from './support/delegation-world.js';
import { startSdkUpstream, type SdkUpstream } from './support/sdk-upstream.js';

const DISCOVERY_KEY = 'notes-discovery-key-0123';
const NOTES: Readonly<Record<string, readonly string[]>> = {
  alice: ['buy milk', 'call the bank'],
  bob: ['water the plants'],
};

function bearer(headers: IncomingHttpHeaders): string {
  const value = headers.authorization ?? '';
  return value.startsWith('Bearer ') ? value.slice('Bearer '.length) : '';
}

describe('identity mode delegation through POST /mcp: two users, their own upstream tokens', () => {
  let world: DelegationWorld;
  let notes: SdkUpstream;
  let gatewayUrl: string;
  let key: string;
  const tokens = new Map<string, string>();
  let holderOf: (token: string) => string | undefined = () => undefined;

  async function call(user: string): Promise<Record<string, unknown>> {
    const response = await fetch(`${gatewayUrl}/mcp`, {
      method: 'POST',
      headers: {
        ...MCP_HEADERS,
        'mcp-protocol-version': '2025-11-25',
        'ocp-apim-subscription-key': key,
        authorization: `Bearer ${tokens.get(user) ?? ''}`,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: `${BACKEND}_my_notes`, arguments: {} },
      }),
    });
    const body = (await response.json()) as { result?: Record<string, unknown> };
    assert.ok(body.result, JSON.stringify(body));
    return body.result;
  }

  const upstreamToolCalls = () =>
    notes.calls.filter((c) => c.method === 'tools/call' && !c.refusedWith);

  before(async () => {
    notes = await startSdkUpstream({
      name: 'notes',
      authorize: (headers) => {
        if (headers.authorization !== undefined)
          return holderOf(bearer(headers)) === undefined
            ? { wwwAuthenticate: 'Bearer error="invalid_token"' }
            : true;
        return headers['x-discovery-key'] === DISCOVERY_KEY
          ? true
          : { wwwAuthenticate: 'Bearer error="invalid_request"' };
      },
      tools: [
        {
          name: 'my_notes',
          description: "The signed-in user's notes.",
          outputSchema: { owner: z.string(), notes: z.array(z.string()) },
          handler: (_args, extra) => {
            const info = (extra as unknown as { requestInfo?: { headers: IncomingHttpHeaders } })
              .requestInfo;
            const owner = holderOf(bearer(info?.headers ?? {})) ?? '';
            const mine = [...(NOTES[owner] ?? [])];
            return {
              content: [{ type: 'text', text: `${owner}: ${mine.join('; ')}` }],
              structuredContent: { owner, notes: mine },
            };
          },
        },
      ],
    });
    world = await startDelegationWorld({
      mcpUrl: notes.url,
      backend: {
        mcp: { url: notes.url, headers: { 'x-discovery-key': DISCOVERY_KEY } },
        approve: 'all',
      },
    });
    holderOf = (token) => world.upstream.holderOf(token);
    gatewayUrl = `http://127.0.0.1:${world.config.gateway.port}`;
    const metadata = await devIdpMetadata(gatewayUrl);
    const idp = await createDevIdp({ dataDir: world.config.dataDir });
    for (const user of ['alice', 'bob'])
      tokens.set(
        user,
        await idp.mintToken({ sub: user, audience: `${gatewayUrl}/mcp`, issuer: metadata.issuer }),
      );
    key = (
      await new SubscriptionStore(world.db).create({
        application: 'notes-agent',
        environment: 'development',
      })
    ).primaryKey;
  });
  after(async () => {
    await world?.close();
    await notes?.close();
  });

  test('before connecting, the call answers with the sign-in link and the upstream is not called', async () => {
    const answer = await call('alice');
    assert.equal(answer.isError, true);
    const text = JSON.stringify(answer.content);
    assert.ok(text.includes(world.connectLink), text);
    assert.equal(upstreamToolCalls().length, 0);
  });

  test("after each connects, Alice's and Bob's calls carry their own tokens and get their own notes", async () => {
    assert.equal((await world.connect(new Browser('alice'), 'alice')).status, 200);
    assert.equal((await world.connect(new Browser('bob'), 'bob')).status, 200);
    const users = ['alice', 'bob', 'bob', 'alice', 'bob', 'alice'];
    const answers = await Promise.all(users.map((user) => call(user)));
    answers.forEach((answer, i) => {
      assert.notEqual(answer.isError, true, JSON.stringify(answer));
      assert.deepEqual(answer.structuredContent, {
        owner: users[i],
        notes: NOTES[users[i] ?? ''],
      });
    });
    // What the upstream saw: every call carried a live token of one of the two users, three each.
    const holders = upstreamToolCalls()
      .map((c) => holderOf(bearer(c.headers)))
      .sort();
    assert.deepEqual(holders, ['alice', 'alice', 'alice', 'bob', 'bob', 'bob']);
  });

  test("an upstream 401 for Alice's token: that call fails, her next call asks her to sign in again; Bob's still works", async () => {
    const stored = await world.delegation.store.get('alice', BACKEND);
    assert.ok(stored);
    await world.upstream.revoke(stored.tokens.accessToken, 'access_token');
    const refused = await call('alice');
    assert.equal(refused.isError, true);
    const next = await call('alice');
    assert.equal(next.isError, true);
    assert.ok(JSON.stringify(next.content).includes(world.connectLink), JSON.stringify(next));
    const bob = await call('bob');
    assert.deepEqual((bob.structuredContent as { owner: string }).owner, 'bob');
  });
});
