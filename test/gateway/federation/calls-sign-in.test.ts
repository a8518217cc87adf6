// The sign-in an upstream needs before the user's first call (issue 28, per-user delegation: "the user is
// sent through that server's authorization flow once (URL-mode elicitation / input_required where the
// client supports it, otherwise a link in the tool result)"), rendered as governance consent is
// (docs/decisions.md, D-248): 2026-07-28 with URL-mode elicitation declared → input_required; 2025-11-25
// declaring elicitation.url → URLElicitationRequiredError (-32042, MCP 2025-11-25 client/elicitation);
// every other client → a tool error with the link.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { GatewayError } from '../../../src/gateway/errors.js';
import { META_SIGN_IN, SIGN_IN_INPUT_KEY } from '../../../src/gateway/federation/sign-in.js';
import type { UpstreamCredentials } from '../../../src/gateway/federation/contracts.js';
import { ScriptedUpstream, caller, harness, mcpTool, textOf } from './support/calls-harness.js';

const URL = 'http://127.0.0.1:8080/federation/sign-in/up?state=abc';
const MESSAGE = 'Sign in to up so the agent can read your files there.';

/** Sign-in until `signedIn` is set, then the user's own token. */
function delegation() {
  const state = { signedIn: false };
  return {
    state,
    identity: async (): Promise<UpstreamCredentials> =>
      state.signedIn
        ? { kind: 'headers', headers: { Authorization: 'Bearer upstream-token-of-alice' } }
        : { kind: 'sign-in', backend: 'up', url: URL, message: MESSAGE, elicitationId: 'alice-up' },
  };
}

const tool = mcpTool({ name: 'up_files' });
const alice = caller({ subject: 'alice' });
const ok = () => ({ content: [{ type: 'text', text: 'files: a, b' }] });

function modern(
  params: Record<string, unknown> = {},
  caps: Record<string, unknown> = { elicitation: { url: {} } },
) {
  return {
    name: 'up_files',
    arguments: {},
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': caps,
    },
    ...params,
  };
}

describe('sign-in rendering by what the client can do', () => {
  test('2026-07-28 with URL-mode elicitation: input_required with the URL elicitation; after sign-in the retry is called', async () => {
    const { state, identity } = delegation();
    const upstream = new ScriptedUpstream('up', ok);
    const h = harness({ upstreams: [upstream], identity });
    const asked = await h.run(tool, modern(), '2026-07-28', alice);
    assert.deepEqual(asked, {
      resultType: 'input_required',
      inputRequests: {
        [SIGN_IN_INPUT_KEY]: {
          method: 'elicitation/create',
          params: { mode: 'url', message: MESSAGE, url: URL },
        },
      },
      _meta: { [META_SIGN_IN]: { backend: 'up', url: URL, elicitationId: 'alice-up' } },
    });
    assert.equal(upstream.received.length, 0);
    assert.ok(h.annotations.some((a) => a.upstream === 'sign_in_required'));

    state.signedIn = true;
    const retry = modern({ inputResponses: { [SIGN_IN_INPUT_KEY]: { action: 'accept' } } });
    const done = await h.run(tool, retry, '2026-07-28', alice);
    assert.deepEqual(done, ok());
    assert.deepEqual(upstream.received[0]?.options?.headers, {
      Authorization: 'Bearer upstream-token-of-alice',
    });
  });

  test('2026-07-28: a user who declined the sign-in gets a tool error, not the same question again', async () => {
    const { identity } = delegation();
    const upstream = new ScriptedUpstream('up', ok);
    const h = harness({ upstreams: [upstream], identity });
    const declined = modern({ inputResponses: { [SIGN_IN_INPUT_KEY]: { action: 'decline' } } });
    const result = await h.run(tool, declined, '2026-07-28', alice);
    assert.equal(result.isError, true);
    assert.match(textOf(result), /You declined to sign in at up, so the call was not made/);
    assert.equal(upstream.received.length, 0);
  });

  test('2025-11-25 declaring elicitation.url: the URL elicitation required error (-32042) with data.elicitations', async () => {
    const { identity } = delegation();
    const upstream = new ScriptedUpstream('up', ok);
    const h = harness({ upstreams: [upstream], identity });
    const params = {
      name: 'up_files',
      arguments: {},
      _meta: { 'io.modelcontextprotocol/clientCapabilities': { elicitation: { url: {} } } },
    };
    const error = await h.run(tool, params, '2025-11-25', alice).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(error instanceof GatewayError);
    assert.equal(error.code, 'URL_ELICITATION_REQUIRED');
    assert.equal(error.rpcCode, -32042);
    assert.match(error.message, /Sign in at up first/);
    assert.deepEqual(error.data, {
      elicitations: [{ mode: 'url', elicitationId: 'alice-up', url: URL, message: MESSAGE }],
      signIn: { backend: 'up', url: URL, elicitationId: 'alice-up' },
    });
    assert.equal(upstream.received.length, 0);
  });

  test('every other client: a tool error with the link that says to call again after signing in', async () => {
    for (const [version, params] of [
      ['2025-11-25', { name: 'up_files', arguments: {} }],
      ['2025-06-18', { name: 'up_files', arguments: {} }],
      ['2026-07-28', modern({}, { elicitation: {} })],
    ] as const) {
      const { identity } = delegation();
      const upstream = new ScriptedUpstream('up', ok);
      const h = harness({ upstreams: [upstream], identity });
      const result = await h.run(tool, { ...params }, version, alice);
      assert.equal(result.isError, true, version);
      assert.equal(
        textOf(result),
        `Sign in to up so the agent can read your files there. Sign in at ${URL}, then call up_files again (the upstream was not called).`,
      );
      assert.deepEqual(result.structuredContent, {
        signIn: { backend: 'up', url: URL, elicitationId: 'alice-up' },
      });
      assert.equal(upstream.received.length, 0);
    }
    const { identity } = delegation();
    const old = await harness({ upstreams: [new ScriptedUpstream('up', ok)], identity }).run(
      tool,
      { name: 'up_files', arguments: {} },
      '2025-03-26',
      alice,
    );
    assert.equal('structuredContent' in old, false, 'no structuredContent before 2025-06-18');
    assert.match(textOf(old), /Sign in at http/);
  });
});
