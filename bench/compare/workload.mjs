// The one workload both run.mjs and profile.mjs send: the same 1.5 KB createPayment tools/call, its MCP
// headers, and a user's token for the full configuration, signed by a key only this run knows.
import { SignJWT, exportJWK, generateKeyPair } from 'jose';

export const payment = {
  amount: { value: '125.50', currency: 'EUR' },
  payee: `DE89 ${'x'.repeat(1380)}`,
};

export const call = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'createPayment', arguments: { body: payment } },
});

export const mcpHeaders = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-06-18',
};

/** A fresh ES256 key: its public JWK (for toolgate full's static keys) and a token it signed. */
export async function benchUser() {
  const { publicKey, privateKey } = await generateKeyPair('ES256');
  const jwk = JSON.stringify({ ...(await exportJWK(publicKey)), kid: 'bench', alg: 'ES256' });
  const token = await new SignJWT({ email: 'bench@example.com' })
    .setProtectedHeader({ alg: 'ES256', kid: 'bench' })
    .setIssuer('https://idp.bench.example')
    .setAudience('toolgate-bench')
    .setSubject('bench-user')
    .setIssuedAt()
    .setExpirationTime('2h')
    .sign(privateKey);
  return { jwk, token };
}
