// Prints a user token for the reference deployment, signed with the key its gateways trust (the stand-in
// for the organisation's identity provider): node deploy/local/mint-token.mjs <sub> [ttlSeconds]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SignJWT, importPKCS8 } from 'jose';

const [sub, ttl = '3600'] = process.argv.slice(2);
if (!sub) {
  console.error('usage: node deploy/local/mint-token.mjs <sub> [ttlSeconds]');
  process.exit(2);
}
const run = process.env.TOOLGATE_DEPLOY_RUN_DIR ?? join(import.meta.dirname, '..', '.run');
const publicUrl = readFileSync(join(run, 'public-url'), 'utf8').trim();
const key = await importPKCS8(
  readFileSync(join(run, 'secrets', 'jwt-private.pem'), 'utf8'),
  'ES256',
);
const token = await new SignJWT({})
  .setProtectedHeader({ alg: 'ES256', kid: 'deploy-local' })
  .setIssuer('https://idp.deploy.invalid')
  .setAudience(`${publicUrl}/mcp`)
  .setSubject(sub)
  .setIssuedAt()
  .setExpirationTime(`${Number(ttl)}s`)
  .sign(key);
console.log(token);
