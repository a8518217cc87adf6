// Child process for the cross-process test: its own ioredis client and RedisStore; on "go" (a line
// on stdin) it fires COUNT concurrent decisions for one key and prints how many were admitted.
import { createInterface } from 'node:readline';
import { RedisStore } from '../../../src/gateway/ratelimit/redis-store.js';

const [url = '', prefix = '', key = '', limitText = '0', countText = '0'] = process.argv.slice(2);
const store = new RedisStore({ url, keyPrefix: prefix, commandTimeoutMs: 10_000 });
const check = { scope: 'user' as const, key, limit: Number(limitText), windowMs: 60_000 };

await store.ready(); // connected before the start signal
process.stdout.write('ready\n');
const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (line.trim() !== 'go') continue;
  const decisions = await Promise.all(
    Array.from({ length: Number(countText) }, () => store.consume([check])),
  );
  const admitted = decisions.filter((d) => d.allowed).length;
  process.stdout.write(`${JSON.stringify({ admitted, total: decisions.length })}\n`);
  break;
}
lines.close();
await store.close();
