// Identity mode delegation end to end with a real upstream MCP server (issue 28: "one needing OAuth sign-in
// (an oidc-provider in the test) reached through per-user delegation with two users whose tokens never
// cross"; "each call carries the token of the user on whose behalf the agent acts. Never the gateway's own
// credentials for one user's call to another user's data"). The upstream (TypeScript SDK,
// support/sdk-upstream.ts) accepts only access tokens of its own authorization server (support/upstream-as.ts)
// and answers each user's own notes; the gateway's MCP client of it (federation/mcp-client.ts) sends each
// call with the credentials the delegation provider gives for the calling user. Alice and Bob connect their
// accounts through the portal first, in their own browsers.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingHttpHeaders } from 'node:http';
import { UpstreamError } from '../../../src/gateway/federation/contracts.js';
import { McpUpstreamClient } from '../../../src/gateway/federation/mcp-client.js';
import { Browser } from './support/browser.js';
import {
  BACKEND,
  callerFor,
  startDelegationWorld,
  type DelegationWorld,
} from './support/delegation-world.js';
import { startSdkUpstream, type SdkUpstream } from './support/sdk-upstream.js';

const NOTES: Readonly<Record<string, readonly string[]>> = {
  alice: ['buy milk', 'call the bank'],
  bob: ['water the plants'],
};

function bearer(headers: IncomingHttpHeaders): string {
  const value = headers.authorization ?? '';
  return value.startsWith('Bearer ') ? value.slice('Bearer '.length) : '';
}

describe('identity mode delegation end to end: an upstream MCP server behind its own OAuth sign-in', () => {
  let world: DelegationWorld;
  let notes: SdkUpstream;
  let client: McpUpstreamClient;
  /** Set once the world is up: whose live upstream token this is (the resource server's check). */
  let holderOf: (token: string) => string | undefined = () => undefined;
  const alice = new Browser('alice');
  const bob = new Browser('bob');

  before(async () => {
    notes = await startSdkUpstream({
      name: 'notes',
      // The upstream's own resource-server check: a live access token of its authorization server.
      authorize: (headers) =>
        holderOf(bearer(headers)) === undefined
          ? { wwwAuthenticate: 'Bearer error="invalid_token"' }
          : true,
      tools: [
        {
          name: 'my_notes',
          description: "The signed-in user's notes.",
          outputSchema: {},
          handler: (_args, extra) => {
            // The SDK hands the tool the request it came in (its headers): the user is the token's holder.
            const info = (extra as unknown as { requestInfo?: { headers: IncomingHttpHeaders } })
              .requestInfo;
            const owner = holderOf(bearer(info?.headers ?? {})) ?? '';
            const mine = NOTES[owner] ?? [];
            return {
              content: [{ type: 'text', text: `${owner}: ${mine.join('; ')}` }],
              structuredContent: { owner, notes: [...mine] },
            };
          },
        },
      ],
    });
    world = await startDelegationWorld({ mcpUrl: notes.url });
    holderOf = (token) => world.upstream.holderOf(token);
    const backend = world.config.gateway.backends.find((b) => b.name === BACKEND);
    assert.ok(backend?.mcp);
    client = new McpUpstreamClient({ ...backend, mcp: backend.mcp });
  });
  after(async () => {
    await client?.close();
    await world?.close();
    await notes?.close();
  });

  /** One tools/call at the upstream on behalf of `user`, with the credentials delegation gives. */
  async function myNotes(user: string): Promise<Record<string, unknown>> {
    const credentials = await world.delegation(callerFor(user), BACKEND);
    if (credentials.kind !== 'headers') throw new Error(`${user}: ${credentials.kind}`);
    return client.request(
      'tools/call',
      { name: 'my_notes', arguments: {} },
      { headers: credentials.headers },
    );
  }

  test('before signing in there, a call gets the sign-in, and the upstream refuses calls without a token', async () => {
    const credentials = await world.delegation(callerFor('alice'), BACKEND);
    assert.equal(credentials.kind, 'sign-in');
    await assert.rejects(
      client.request('tools/call', { name: 'my_notes', arguments: {} }),
      (error: unknown) => error instanceof UpstreamError && error.reason === 'unauthorized',
    );
  });

  test("Alice's and Bob's calls each carry their own token and get their own data, never crossed", async () => {
    assert.equal((await world.connect(alice, 'alice')).status, 200);
    assert.equal((await world.connect(bob, 'bob')).status, 200);
    // Interleaved and concurrent, as two agents' calls arrive.
    const users = ['alice', 'bob', 'alice', 'bob', 'bob', 'alice'];
    const results = await Promise.all(users.map((user) => myNotes(user)));
    results.forEach((result, i) => {
      const user = users[i] ?? '';
      const structured = result.structuredContent as { owner: string; notes: string[] };
      assert.equal(structured.owner, user, `call ${i} on behalf of ${user}`);
      assert.deepEqual(structured.notes, NOTES[user]);
    });
    // What the upstream saw: every tool call carried a token of the user it answered for.
    const toolCalls = notes.calls.filter((c) => c.method === 'tools/call' && !c.refusedWith);
    assert.equal(toolCalls.length, users.length);
    const holders = toolCalls.map((c) => holderOf(bearer(c.headers))).sort();
    assert.deepEqual(holders, ['alice', 'alice', 'alice', 'bob', 'bob', 'bob']);
  });

  test('after a refresh the user still gets their own data', async () => {
    const stored = await world.delegation.store.get('bob', BACKEND);
    assert.ok(stored?.tokens.expiresAt);
    world.now = stored.tokens.expiresAt + 1000;
    const result = await myNotes('bob');
    assert.equal((result.structuredContent as { owner: string }).owner, 'bob');
    assert.notEqual(
      (await world.delegation.store.get('bob', BACKEND))?.tokens.accessToken,
      stored.tokens.accessToken,
      'refreshed',
    );
  });

  test('an upstream 401 for a delegated token: rejected() forgets it, the next call asks Alice to sign in; Bob is unaffected', async () => {
    world.now = Date.now(); // Alice's token is good by the gateway's clock
    const stored = await world.delegation.store.get('alice', BACKEND);
    assert.ok(stored);
    // The upstream stops accepting Alice's token (revoked there), though it has not expired by our clock.
    await world.upstream.revoke(stored.tokens.accessToken, 'access_token');
    const credentials = await world.delegation(callerFor('alice'), BACKEND);
    assert.equal(credentials.kind, 'headers');
    if (credentials.kind !== 'headers') return;
    const refused = await client
      .request('tools/call', { name: 'my_notes', arguments: {} }, { headers: credentials.headers })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    assert.ok(refused instanceof UpstreamError, String(refused));
    assert.equal(refused.reason, 'unauthorized');
    // What the call path does with that answer.
    assert.equal(
      await world.delegation.rejected(callerFor('alice'), BACKEND, credentials.headers),
      true,
    );
    const next = await world.delegation(callerFor('alice'), BACKEND);
    assert.equal(next.kind, 'sign-in');
    assert.equal(((await myNotes('bob')).structuredContent as { owner: string }).owner, 'bob');
    // Alice connects again and is back to her own notes.
    assert.equal((await world.connect(alice, 'alice')).status, 200);
    assert.deepEqual((await myNotes('alice')).structuredContent, {
      owner: 'alice',
      notes: NOTES.alice,
    });
  });
});
