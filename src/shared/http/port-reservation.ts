// Port 0 ("any free port") for services whose own URL must be known before they are built: the gateway
// names its MCP URL as the JWT audience, and the demo wiring points the gateway at the payment service.
// The socket is bound first and kept open, its port is read back, and the service later listens on that
// very socket, so no other process can take the port in between (no "find a free port, close it, reuse
// it" race).
import { createServer, type Server } from 'node:net';

export interface PortReservation {
  readonly port: number;
  /** What `listen({ handle })` accepts: the bound socket's handle (Node: "an object with a _handle"). */
  readonly handle: unknown;
  /** Releases the socket if the service never took it over. */
  release(): void;
}

export async function reservePort(host: string): Promise<PortReservation> {
  const server: Server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host, port: 0, exclusive: true }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string')
    throw new Error(`could not read the port bound on ${host}`);
  return {
    port: address.port,
    handle: (server as unknown as { _handle: unknown })._handle,
    release: () => {
      server.close();
    },
  };
}
