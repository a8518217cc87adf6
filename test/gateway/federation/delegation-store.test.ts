// The users' delegated upstream tokens at rest (issue 28: "the user's upstream tokens are stored encrypted
// per user"), on SQLite and on PostgreSQL (when DATABASE_URL is set), both migrated as the gateway
// migrates its database: AES-256-GCM under an HKDF-derived key (RFC 5869), the owner (subject, backend) as
// associated data, a fresh nonce per write; the sign-ins in flight usable once.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  SealedTokenError,
  TokenCipher,
  type DelegatedTokens,
} from '../../../src/gateway/federation/delegation/token-cipher.js';
import {
  DelegatedTokenStore,
  DelegationLoginStore,
} from '../../../src/gateway/federation/delegation/token-store.js';
import { DATABASE_TARGETS, type OpenedDatabase } from '../admin/support.js';

const KEY = 'delegation-store-test-key-0123456789abcdef';
const ALICE_TOKENS: DelegatedTokens = {
  accessToken: 'alice-access-token-0123456789',
  refreshToken: 'alice-refresh-token-9876543210',
  expiresAt: 1_800_000_000_000,
  scopes: ['openid', 'notes:read'],
  tokenType: 'Bearer',
};

describe('token cipher (pure)', () => {
  const cipher = new TokenCipher(KEY);

  test('seals and opens for the same owner; every write has a fresh nonce', () => {
    const a = cipher.seal('alice', 'notes', ALICE_TOKENS);
    const b = cipher.seal('alice', 'notes', ALICE_TOKENS);
    assert.notEqual(a, b, 'same plaintext, different ciphertext (random nonce)');
    assert.notEqual(a.split('.')[1], b.split('.')[1]);
    assert.deepEqual(cipher.open('alice', 'notes', a), ALICE_TOKENS);
    assert.deepEqual(cipher.open('alice', 'notes', b), ALICE_TOKENS);
  });

  test('the sealed text contains neither token, in any encoding', () => {
    const sealed = cipher.seal('alice', 'notes', ALICE_TOKENS);
    for (const secret of [ALICE_TOKENS.accessToken, ALICE_TOKENS.refreshToken ?? '']) {
      assert.ok(!sealed.includes(secret));
      assert.ok(!sealed.includes(Buffer.from(secret).toString('base64url')));
      assert.ok(!sealed.includes(Buffer.from(secret).toString('base64')));
    }
  });

  test('AAD: a sealed value does not open for another subject or another backend', () => {
    const sealed = cipher.seal('alice', 'notes', ALICE_TOKENS);
    assert.throws(() => cipher.open('bob', 'notes', sealed), SealedTokenError);
    assert.throws(() => cipher.open('alice', 'calendar', sealed), SealedTokenError);
    // No separator games: ("a\u0000b", "c") is not ("a", "b\u0000c").
    const odd = cipher.seal('a\u0000b', 'c', ALICE_TOKENS);
    assert.throws(() => cipher.open('a', 'b\u0000c', odd), SealedTokenError);
  });

  test('key derivation: another tokenKey cannot open it; altered bytes are refused', () => {
    const sealed = cipher.seal('alice', 'notes', ALICE_TOKENS);
    const other = new TokenCipher(`${KEY}-rotated`);
    assert.throws(() => other.open('alice', 'notes', sealed), SealedTokenError);
    const [v, nonce, body = ''] = sealed.split('.');
    const flipped = Buffer.from(body, 'base64url');
    flipped[0] = (flipped[0] ?? 0) ^ 1;
    assert.throws(
      () => cipher.open('alice', 'notes', `${v}.${nonce}.${flipped.toString('base64url')}`),
      SealedTokenError,
    );
    assert.throws(() => cipher.open('alice', 'notes', 'v2.x.y'), /known version/);
  });

  test('a short tokenKey is refused naming the setting', () => {
    assert.throws(() => new TokenCipher('short'), /gateway\.federation\.tokenKey/);
  });

  test('elicitation ids: stable per (subject, backend), distinct otherwise, not revealing the subject', () => {
    const id = cipher.elicitationId('alice', 'notes');
    assert.equal(cipher.elicitationId('alice', 'notes'), id);
    assert.notEqual(cipher.elicitationId('bob', 'notes'), id);
    assert.notEqual(cipher.elicitationId('alice', 'calendar'), id);
    assert.notEqual(new TokenCipher(`${KEY}-other`).elicitationId('alice', 'notes'), id);
    assert.ok(!id.includes('alice'));
  });
});

for (const target of DATABASE_TARGETS) {
  describe(`delegated token store (${target.name})`, { skip: target.skip }, () => {
    let opened: OpenedDatabase;
    let store: DelegatedTokenStore;
    let logins: DelegationLoginStore;
    let now = 1_700_000_000_000;
    const cipher = new TokenCipher(KEY);

    before(async () => {
      opened = await target.open();
      store = new DelegatedTokenStore(opened.db, cipher, () => now);
      logins = new DelegationLoginStore(opened.db, () => now);
    });
    after(async () => opened?.close());

    test('one row per (subject, backend); the database holds no token in clear', async () => {
      await store.put('alice', 'notes', ALICE_TOKENS);
      await store.put('bob', 'notes', { ...ALICE_TOKENS, accessToken: 'bob-access-token' });
      assert.equal(
        (await store.get('alice', 'notes'))?.tokens.accessToken,
        ALICE_TOKENS.accessToken,
      );
      assert.equal((await store.get('bob', 'notes'))?.tokens.accessToken, 'bob-access-token');
      assert.equal(await store.get('alice', 'calendar'), null);
      const rows = await opened.db.query<Record<string, unknown>>(
        'SELECT * FROM gateway_delegated_tokens',
      );
      assert.equal(rows.length, 2);
      const dump = JSON.stringify(rows);
      assert.ok(!dump.includes(ALICE_TOKENS.accessToken));
      assert.ok(!dump.includes(ALICE_TOKENS.refreshToken ?? ''));
      assert.ok(!dump.includes('bob-access-token'));
      assert.deepEqual(await store.backendsOf('alice'), ['notes']);
    });

    test("a row copied into another user's place does not open for them (reads as absent)", async () => {
      await opened.db.execute(
        `UPDATE gateway_delegated_tokens SET sealed =
           (SELECT sealed FROM gateway_delegated_tokens WHERE subject = 'alice' AND backend = 'notes')
         WHERE subject = 'bob' AND backend = 'notes'`,
      );
      assert.equal(await store.get('bob', 'notes'), null, "Bob never gets Alice's token");
      assert.equal(
        (await store.get('alice', 'notes'))?.tokens.accessToken,
        ALICE_TOKENS.accessToken,
      );
    });

    test('replace and remove are compare-and-set on the sealed value (a newer write wins)', async () => {
      const first = await store.get('alice', 'notes');
      assert.ok(first);
      const newer = { ...ALICE_TOKENS, accessToken: 'alice-newer' };
      assert.equal(await store.replace('alice', 'notes', first.sealed, newer), true);
      assert.equal(
        await store.replace('alice', 'notes', first.sealed, {
          ...ALICE_TOKENS,
          accessToken: 'late',
        }),
        false,
        'a stale writer does not overwrite',
      );
      assert.equal((await store.get('alice', 'notes'))?.tokens.accessToken, 'alice-newer');
      assert.equal(await store.remove('alice', 'notes', first.sealed), false, 'stale: kept');
      assert.ok(await store.get('alice', 'notes'));
      assert.equal(await store.remove('alice', 'notes'), true);
      assert.equal(await store.get('alice', 'notes'), null);
    });

    test('a sign-in in flight: peeked any number of times, taken once, gone after ten minutes', async () => {
      const pending = {
        subject: 'alice',
        backend: 'notes',
        bindingHash: 'h',
        redirectUri: 'http://127.0.0.1:1/portal/federation/callback',
        nonce: 'n',
        codeVerifier: 'v',
      };
      await logins.save('state-1', pending);
      assert.deepEqual(await logins.peek('state-1'), pending);
      assert.deepEqual(await logins.take('state-1'), pending);
      assert.equal(await logins.take('state-1'), null, 'usable once');
      await logins.save('state-2', { ...pending, nonce: undefined });
      assert.equal((await logins.peek('state-2'))?.nonce, undefined);
      now += 10 * 60_000;
      assert.equal(await logins.peek('state-2'), null);
      assert.equal(await logins.take('state-2'), null, 'expired');
      const stored = await opened.db.query<{ state_hash: string }>(
        'SELECT state_hash FROM gateway_delegation_logins',
      );
      assert.ok(
        stored.every((r) => !r.state_hash.includes('state-')),
        'only hashes of states',
      );
    });
  });
}
