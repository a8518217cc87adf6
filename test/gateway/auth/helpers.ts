// Test helpers: a real OpenID provider (oidc-provider) on a loopback port behind a thin wrapper that
// counts requests per path, can be taken "down" (503) and can rotate its signing keys; a recording
// fetch; a controllable clock; token minting with jose and raw signing for hand-crafted headers.
import { createServer, type Server } from 'node:http';
import { createPrivateKey, sign as nodeSign, type JsonWebKey, type KeyObject } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { b64 } from './util.js';

export * from './util.js';
import {
  SignJWT,
  exportJWK,
  generateKeyPair,
  type JWK,
  type CryptoKey,
  type JWTPayload,
} from 'jose';

export interface SigningKey {
  kid: string;
  alg: 'RS256' | 'ES256';
  privateKey: CryptoKey;
  privateJwk: JWK;
  publicJwk: JWK;
}

export async function makeKey(kid: string, alg: 'RS256' | 'ES256' = 'RS256'): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const privateJwk = { ...(await exportJWK(privateKey)), kid, alg, use: 'sig' };
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' };
  return { kid, alg, privateKey, privateJwk, publicJwk };
}

export async function mint(
  key: SigningKey,
  claims: JWTPayload,
  header: Record<string, unknown> = {},
): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT', ...header })
    .sign(key.privateKey);
}

/** Signs arbitrary header/payload JSON with RS256 without any library-side header validation. */
export function signRawRs256(
  header: Record<string, unknown>,
  payload: Record<string, unknown>,
  privateJwk: JWK,
): string {
  const key: KeyObject = createPrivateKey({ key: privateJwk as JsonWebKey, format: 'jwk' });
  const input = `${b64(header)}.${b64(payload)}`;
  return `${input}.${nodeSign('sha256', Buffer.from(input), key).toString('base64url')}`;
}

export interface LoopbackIdp {
  issuer: string;
  hits: Map<string, number>;
  count(path: string): number;
  total(): number;
  setKeys(keys: SigningKey[]): void;
  down: boolean;
  close(): Promise<void>;
}

function quietProvider(issuer: string, keys: SigningKey[]): Provider {
  return new Provider(issuer, { jwks: { keys: keys.map((k) => k.privateJwk) } });
}

/** A real oidc-provider (v9) on 127.0.0.1:0 serving discovery and its JWKS from the given keys. */
export async function startOidcProvider(keys: SigningKey[]): Promise<LoopbackIdp> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const issuer = `http://127.0.0.1:${port}`;
  let provider = quietProvider(issuer, keys);
  const hits = new Map<string, number>();
  const idp: LoopbackIdp = {
    issuer,
    hits,
    count: (path) => hits.get(path) ?? 0,
    total: () => [...hits.values()].reduce((a, b) => a + b, 0),
    setKeys(next) {
      provider = quietProvider(issuer, next);
    },
    down: false,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  server.on('request', (req, res) => {
    const path = new URL(req.url ?? '/', issuer).pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    if (idp.down) {
      res.writeHead(503).end();
      return;
    }
    void provider.callback()(req, res);
  });
  return idp;
}

/** A loopback HTTP server that only counts requests (an attacker's key host). */
export async function startCountingServer(): Promise<{
  url: string;
  hits: () => number;
  close: () => Promise<void>;
}> {
  let count = 0;
  const server = createServer((_req, res) => {
    count += 1;
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"keys":[]}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits: () => count,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
