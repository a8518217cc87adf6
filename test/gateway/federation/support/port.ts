// Whether a loopback port accepts a TCP connection now: how the upstream fixtures wait for a child
// process to listen (an HTTP probe could open an SSE stream that never ends).
import { connect } from 'node:net';

export function connects(port: number, timeoutMs = 1000): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error('connect timed out')));
    socket.once('connect', () => {
      socket.end();
      resolve();
    });
    socket.once('error', reject);
  });
}
