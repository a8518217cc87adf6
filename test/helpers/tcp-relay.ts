// A TCP relay bound to port 0 in this process, in front of a Unix socket. A server behind it can be
// stopped and started again while clients keep one address that nobody else can take in between (no
// "find a free port, close it, reuse it"). While nothing listens behind it, every connection is closed
// at once, as a client sees a server that is down.
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface TcpRelay {
  readonly port: number;
  close(): Promise<void>;
}

export async function startTcpRelay(unixSocketPath: string): Promise<TcpRelay> {
  const open = new Set<Socket>();
  const server: Server = createServer((client) => {
    open.add(client);
    const upstream = connect(unixSocketPath);
    open.add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.once('close', () => open.delete(client));
    upstream.once('close', () => open.delete(upstream));
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('relay has no TCP port');
  return {
    port: address.port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
