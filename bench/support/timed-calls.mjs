// One load loop for the benches that time individual MCP calls (bench/federation, bench/tracing): the same
// JSON-RPC body sent `count` times after `warm` untimed calls, by `inFlight` workers each on its own
// keep-alive connection (undici), each call timed with hrtime until its whole response has arrived, and the
// CPU the servers spent over the timed part read before and after.
import { Pool } from 'undici';

/**
 * @param {{ name: string, url: string, headers: Record<string, string>, cpuReaders: Array<() => Promise<number>> }} target
 * @param {{ body: string, check: (label: string, status: number, text: string) => void, count: number, warm: number, inFlight: number }} load
 * @returns {Promise<{ p50: number, p99: number, rps: number, cpu: number[] }>} latencies in µs, calls/s,
 *   and each cpuReader's CPU µs per timed call
 */
export async function timedCalls(target, { body, check, count, warm, inFlight }) {
  const url = new URL(target.url);
  const pool = new Pool(url.origin, { connections: inFlight, pipelining: 1 });
  const one = async () => {
    const t0 = process.hrtime.bigint();
    const res = await pool.request({
      method: 'POST',
      path: url.pathname,
      headers: target.headers,
      body,
    });
    const text = await res.body.text();
    const elapsed = Number(process.hrtime.bigint() - t0) / 1000;
    check(target.name, res.statusCode, text);
    return elapsed;
  };
  const batch = async (n, times) => {
    let next = 0;
    const worker = async () => {
      while (next < n) {
        next++;
        // Not `times?.push(await one())`: without `times` (the warm-up) that would skip the call itself.
        const elapsed = await one();
        times?.push(elapsed);
      }
    };
    await Promise.all(Array.from({ length: inFlight }, worker));
  };
  const readCpu = () => Promise.all(target.cpuReaders.map((read) => read()));
  try {
    await batch(warm);
    const times = [];
    const cpu = await readCpu();
    const t0 = process.hrtime.bigint();
    await batch(count, times);
    const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
    const cpuAfter = await readCpu();
    times.sort((a, b) => a - b);
    const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
    return {
      p50: at(0.5),
      p99: at(0.99),
      rps: (count / wallMs) * 1000,
      cpu: cpuAfter.map((c, i) => (c - cpu[i]) / count),
    };
  } finally {
    await pool.close();
  }
}

/** The median of a list of numbers (the upper one of an even count). */
export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
