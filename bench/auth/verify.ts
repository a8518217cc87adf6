// Benchmark: CPU µs per JWT verification, for RS256 and ES256, in one run:
// - bare jose: jwtVerify with the key in hand (no gateway code; the floor every row is compared with),
// - first-seen tokens with a static key, and with keys from OIDC discovery (a loopback provider serving
//   the discovery document and the JWKS; fetched once, during the warm-up): every gateway check, key
//   selection, signature and claims,
// - cached tokens (SHA-256 of the token + LRU lookup).
// CPU time, not wall time: on a shared machine a process waiting for a core is not charged for it. The rows
// also take turns in rounds and each reports its median round; compare the ratios to bare jose.
// Run: npx tsc -p . && node dist/bench/auth/verify.js [tokensPerAlg]
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair, jwtVerify, type CryptoKey, type JWK } from 'jose';
import { resolveJwtConfig } from '../../src/config/gateway-jwt.js';
import { createJwtVerifier, type JwtVerifier } from '../../src/gateway/auth/jwt/verify.js';

const AUDIENCE = 'https://gateway.example.com/mcp';
const N = Number(process.argv[2] ?? 2000);
const ROUNDS = 20;

/** A loopback OpenID provider that serves only discovery and the JWKS. */
async function provider(jwk: JWK): Promise<{ issuer: string; close: () => void }> {
  const server = createServer((req, res) => {
    const body =
      req.url === '/jwks'
        ? { keys: [jwk] }
        : { issuer: `http://127.0.0.1:${port}`, jwks_uri: `http://127.0.0.1:${port}/jwks` };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { issuer: `http://127.0.0.1:${port}`, close: () => server.close() };
}

/** CPU µs (user + system, every thread of the process) per call of `verify` over `tokens`. */
async function perToken(tokens: readonly string[], verify: (t: string) => Promise<unknown>) {
  const before = process.cpuUsage();
  for (const t of tokens) await verify(t);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / tokens.length;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

interface Row {
  alg: string;
  jose: number;
  staticKey: number;
  discovered: number;
  cached: number;
}

async function run(alg: 'RS256' | 'ES256'): Promise<Row> {
  const { privateKey, publicKey } = await generateKeyPair(alg);
  const jwk = { ...(await exportJWK(publicKey)), kid: 'bench', alg };
  const idp = await provider(jwk);
  const mint = (i: number) =>
    new SignJWT({ scope: 'payments:read', tenant: 'acme' })
      .setProtectedHeader({ alg, kid: 'bench', typ: 'JWT' })
      .setIssuer(idp.issuer)
      .setAudience(AUDIENCE)
      .setSubject(`user-${i}`)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(privateKey as CryptoKey);
  const tokens = await Promise.all(Array.from({ length: 3 * N + 50 }, (_, i) => mint(i)));
  const settings = { issuer: idp.issuer, audience: AUDIENCE };
  const tokenCache = { maxEntries: N * 2, maxAgeMs: 600_000 };
  const verifiers: JwtVerifier[] = [
    createJwtVerifier(resolveJwtConfig({ ...settings, staticKeys: [{ jwk }], tokenCache })),
    createJwtVerifier(resolveJwtConfig({ ...settings, tokenCache })),
  ];
  const [staticVerifier, discoveryVerifier] = verifiers as [JwtVerifier, JwtVerifier];
  // Warm-up (key import, discovery and JWKS fetch, JIT) on tokens not used in the measurement.
  for (const t of tokens.slice(3 * N)) {
    await jwtVerify(t, publicKey, { ...settings, algorithms: [alg] });
    for (const v of verifiers) await v.verify(t);
  }
  // The machine is shared: the rows take turns, ROUNDS times, on fresh tokens each; the median counts.
  const cases: [keyof Omit<Row, 'alg'>, (t: string) => Promise<unknown>][] = [
    ['jose', (t) => jwtVerify(t, publicKey, { ...settings, algorithms: [alg] })],
    ['staticKey', (t) => staticVerifier.verify(t)],
    ['discovered', (t) => discoveryVerifier.verify(t)],
  ];
  const batch = Math.max(1, Math.floor(N / ROUNDS));
  const samples = new Map(cases.map(([name]) => [name, [] as number[]]));
  const cached: number[] = [];
  for (let round = 0; round < ROUNDS; round++)
    for (const [index, [name, verify]] of cases.entries()) {
      const start = (round * cases.length + index) * batch;
      samples.get(name)?.push(await perToken(tokens.slice(start, start + batch), verify));
      if (index === 1)
        cached.push(
          await perToken(
            Array.from({ length: batch }, () => tokens[0] as string),
            (t) => staticVerifier.verify(t),
          ),
        );
    }
  const row: Row = {
    alg,
    jose: median(samples.get('jose') ?? []),
    staticKey: median(samples.get('staticKey') ?? []),
    discovered: median(samples.get('discovered') ?? []),
    cached: median(cached),
  };
  for (const v of verifiers) v.close();
  idp.close();
  return row;
}

const rows = [await run('RS256'), await run('ES256')];
console.log(
  `node ${process.version}, ${N} tokens per algorithm and row in ${ROUNDS} interleaved rounds; median CPU µs/op (× bare jose)`,
);
console.log('alg    bare jose   static key    discovered        cached');
const cell = (value: number, jose: number) =>
  `${value.toFixed(1).padStart(7)} ${`(${(value / jose).toFixed(2)})`.padStart(6)}`;
for (const r of rows)
  console.log(
    `${r.alg.padEnd(6)} ${r.jose.toFixed(1).padStart(9)} ${cell(r.staticKey, r.jose)} ${cell(r.discovered, r.jose)} ${cell(r.cached, r.jose)}`,
  );
