// Measurement: what a user-token check does while the identity provider is down, once the cached keys
// are older than their maximum age — jose's createRemoteJWKSet (with its timeoutDuration, cooldownDuration
// and cacheMaxAge) against the gateway's verifier (discovery.ts: jose's local key set, our refresh policy).
// Two outages: the provider answers 503, or it accepts connections and never answers (a black hole).
// For each: how many of the tokens verify, how many requests reach the provider, and how long one
// verification takes (median and worst). Wall time on purpose: waiting is what a caller feels.
// Run: npx tsc -p . && node dist/bench/auth/jwks-outage.js [tokens]
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { SignJWT, createRemoteJWKSet, exportJWK, generateKeyPair, jwtVerify } from 'jose';
import { resolveJwtConfig } from '../../src/config/gateway-jwt.js';
import { createJwtVerifier } from '../../src/gateway/auth/jwt/verify.js';

const AUDIENCE = 'https://gateway.example.com/mcp';
// The defaults' order (timeout 5 s < cooldown 30 s < max age 10 min), scaled down.
const TOKENS = Number(process.argv[2] ?? 50);
const MAX_AGE_MS = 6_000;
const TIMEOUT_MS = 500;
const COOLDOWN_MS = 3_000;

type Outage = '503' | 'black hole';

interface Provider {
  issuer: string;
  requests: number;
  outage: Outage | undefined;
  close(): void;
}

async function provider(jwks: object): Promise<Provider> {
  const held: ServerResponse[] = [];
  const state: Provider = { issuer: '', requests: 0, outage: undefined, close: () => undefined };
  const server = createServer((req, res) => {
    state.requests += 1;
    if (state.outage === '503') return void res.writeHead(503).end();
    if (state.outage === 'black hole') return void held.push(res);
    const body =
      req.url === '/jwks' ? jwks : { issuer: state.issuer, jwks_uri: `${state.issuer}/jwks` };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () => {
    server.closeAllConnections();
    server.close();
  };
  return state;
}

interface Result {
  verified: number;
  requests: number;
  medianMs: number;
  worstMs: number;
}

async function measure(
  outage: Outage,
  build: (issuer: string) => (token: string) => Promise<unknown>,
): Promise<Result> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256' };
  const idp = await provider({ keys: [jwk] });
  const verify = build(idp.issuer);
  const mint = (i: number) =>
    new SignJWT({})
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .setIssuer(idp.issuer)
      .setAudience(AUDIENCE)
      .setSubject(`user-${i}`)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(privateKey);
  await verify(await mint(-1)); // keys fetched while the provider is up
  idp.outage = outage;
  await sleep(MAX_AGE_MS + 100); // the cached keys are now older than their maximum age
  idp.requests = 0;
  const times: number[] = [];
  let verified = 0;
  for (let i = 0; i < TOKENS; i++) {
    const token = await mint(i);
    const t0 = performance.now();
    if (
      await verify(token).then(
        () => true,
        () => false,
      )
    )
      verified += 1;
    times.push(performance.now() - t0);
  }
  idp.close();
  times.sort((a, b) => a - b);
  return {
    verified,
    requests: idp.requests,
    medianMs: times[Math.floor(times.length / 2)] ?? NaN,
    worstMs: times[times.length - 1] ?? NaN,
  };
}

const joseRemote = (issuer: string) => {
  const keys = createRemoteJWKSet(new URL(`${issuer}/jwks`), {
    timeoutDuration: TIMEOUT_MS,
    cooldownDuration: COOLDOWN_MS,
    cacheMaxAge: MAX_AGE_MS,
  });
  return (token: string) => jwtVerify(token, keys, { issuer, audience: AUDIENCE });
};

const gateway = (issuer: string) => {
  const verifier = createJwtVerifier(
    resolveJwtConfig({
      issuer,
      audience: AUDIENCE,
      discovery: { timeoutMs: TIMEOUT_MS, cacheMaxAgeMs: MAX_AGE_MS, cooldownMs: COOLDOWN_MS },
      tokenCache: { maxEntries: 0 },
    }),
  );
  return (token: string) => verifier.verify(token);
};

console.log(
  `node ${process.version}; ${TOKENS} tokens after the keys passed their max age (${MAX_AGE_MS} ms); timeout ${TIMEOUT_MS} ms, cooldown ${COOLDOWN_MS} ms`,
);
console.log(
  'outage      key set                  verified  provider requests  median ms  worst ms',
);
for (const outage of ['503', 'black hole'] as const)
  for (const [name, build] of [
    ['jose createRemoteJWKSet', joseRemote],
    ['gateway (discovery.ts)', gateway],
  ] as const) {
    const r = await measure(outage, build);
    console.log(
      `${outage.padEnd(11)} ${name.padEnd(24)} ${`${r.verified}/${TOKENS}`.padStart(8)}  ${String(r.requests).padStart(17)}  ${r.medianMs.toFixed(2).padStart(9)}  ${r.worstMs.toFixed(0).padStart(8)}`,
    );
  }
