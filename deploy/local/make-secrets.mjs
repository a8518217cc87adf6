// Generates the deployment's shared secrets once into <run>/secrets (mode 0600): the subscription-key
// pepper, the consent round-trip secret, the gateway↔payments identity secret and the ES256 key pair that
// stands in for an identity provider (the gateways trust its public half; mint-token.mjs signs with the
// private half). Existing files are kept, so keys and tokens survive a restart.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node make-secrets.mjs <secrets folder>');
  process.exit(2);
}
mkdirSync(dir, { recursive: true, mode: 0o700 });
const write = (name, text) => {
  const file = join(dir, name);
  if (!existsSync(file)) writeFileSync(file, text, { mode: 0o600 });
};
for (const name of ['key-pepper', 'request-state-secret', 'identity-secret'])
  write(name, randomBytes(32).toString('base64url'));
if (!existsSync(join(dir, 'jwt-private.pem'))) {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  write('jwt-public.pem', publicKey.export({ type: 'spki', format: 'pem' }).toString());
  write('jwt-private.pem', privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
}
