// The gateway's private keys that live in its data folder (the development identity provider's, the
// identity-assertion signing key): one reader for both. A key file is created once, readable by the
// owner only (0600, in a 0700 folder); concurrent first starts agree on one key.
import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { JWK } from 'jose';
import { AuthError } from './jwt/errors.js';

export async function readOrCreateJwkFile(
  file: string,
  generate: () => Promise<JWK>,
): Promise<{ jwk: JWK; created: boolean }> {
  const existing = await readJwkFile(file);
  if (existing) return { jwk: existing, created: false };
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  const jwk = await generate();
  try {
    // 'wx' fails if another process created the file meanwhile; then use theirs.
    await writeFile(file, `${JSON.stringify(jwk)}\n`, { mode: 0o600, flag: 'wx' });
    await chmod(file, 0o600); // whatever the umask
    return { jwk, created: true };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const theirs = await readJwkFile(file);
    if (!theirs) throw error;
    return { jwk: theirs, created: false };
  }
}

/** The JWK in `file`, or undefined when there is no such file; a readable-by-others file is tightened. */
async function readJwkFile(file: string): Promise<JWK | undefined> {
  let text: string;
  try {
    const info = await stat(file);
    if ((info.mode & 0o077) !== 0) await chmod(file, 0o600);
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const jwk: unknown = JSON.parse(text);
    if (typeof jwk === 'object' && jwk !== null && !Array.isArray(jwk)) return jwk as JWK;
  } catch {
    // reported below
  }
  throw new AuthError('CONFIG_INVALID', `${file} does not hold a JSON Web Key`);
}
