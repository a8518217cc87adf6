// Benchmark: µs per JWT verification, first-seen tokens (full signature + claims check) vs cached
// tokens (SHA-256 of the token + LRU lookup), for RS256 and ES256, in one run.
// Run: npx tsc -p . && node dist/bench/auth/verify.js [tokensPerAlg]
import { performance } from 'node:perf_hooks';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import { createJwtVerifier } from '../../src/gateway/auth/jwt/verify.js';
import { resolveJwtConfig } from '../../src/config/gateway-jwt.js';

const ISSUER = 'https://idp.example.com';
const AUDIENCE = 'https://gateway.example.com/mcp';
const N = Number(process.argv[2] ?? 2000);

async function run(
  alg: 'RS256' | 'ES256',
): Promise<{ alg: string; first: number; cached: number }> {
  const { privateKey, publicKey } = await generateKeyPair(alg);
  const jwk = { ...(await exportJWK(publicKey)), kid: 'bench', alg };
  const verifier = createJwtVerifier(
    resolveJwtConfig({
      issuer: ISSUER,
      audience: AUDIENCE,
      staticKeys: [{ jwk }],
      tokenCache: { maxEntries: N * 2, maxAgeMs: 600_000 },
    }),
  );
  const exp = Math.floor(Date.now() / 1000) + 3600;
  const tokens = await Promise.all(
    Array.from({ length: N + 50 }, (_, i) =>
      new SignJWT({ scope: 'payments:read', tenant: 'acme' })
        .setProtectedHeader({ alg, kid: 'bench', typ: 'JWT' })
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setSubject(`user-${i}`)
        .setIssuedAt()
        .setExpirationTime(exp)
        .sign(privateKey),
    ),
  );
  // Warm-up (key import, JIT) on tokens not used in the measurement.
  for (const t of tokens.slice(N)) await verifier.verify(t);

  const t0 = performance.now();
  for (const t of tokens.slice(0, N)) await verifier.verify(t);
  const first = ((performance.now() - t0) * 1000) / N;

  const same = tokens[0] as string;
  const t1 = performance.now();
  for (let i = 0; i < N; i++) await verifier.verify(same);
  const cached = ((performance.now() - t1) * 1000) / N;
  verifier.close();
  return { alg, first, cached };
}

const rows = [await run('RS256'), await run('ES256')];
console.log(`node ${process.version}, ${N} tokens per algorithm`);
console.log('alg    first-seen µs/op  cached µs/op  ratio');
for (const r of rows) {
  console.log(
    `${r.alg.padEnd(6)} ${r.first.toFixed(1).padStart(16)}  ${r.cached.toFixed(2).padStart(12)}  ${(r.first / r.cached).toFixed(0).padStart(5)}x`,
  );
}
