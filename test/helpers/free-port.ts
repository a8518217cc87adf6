// A loopback port free at the moment of asking, for a server whose address must be known before it is
// built (an issuer or audience names the port). Another process could take it in between; tests that
// can listen on port 0 should do that instead.
import { createServer } from 'node:net';

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address !== 'object') throw new Error('no port was bound');
  return address.port;
}
