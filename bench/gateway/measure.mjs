// What the gateway benches share: a loaded run with autocannon (warm-up, then CPU per request of the
// processes under test) and an unloaded latency probe (sequential requests on one keep-alive connection,
// timed with hrtime — autocannon's histogram has 1 ms resolution, too coarse for an added p50).
import { fork } from 'node:child_process';
import autocannon from 'autocannon';
import { Pool } from 'undici';

function load(opts) {
  return new Promise((resolve, reject) =>
    autocannon({ pipelining: 1, ...opts }, (err, result) => (err ? reject(err) : resolve(result))),
  );
}

/**
 * 2 s warm-up (JIT, pools, keep-alive, caches), then `duration` seconds of load. `cpuReaders`: one
 * async function per process under test returning its CPU time in µs; the result has each process's
 * CPU per request. Any non-2xx answer, error or timeout fails the run.
 */
export async function measure(label, opts, { duration, connections, cpuReaders = [] }) {
  await load({ ...opts, connections, duration: 2 });
  const before = await Promise.all(cpuReaders.map((read) => read()));
  const r = await load({ ...opts, connections, duration });
  const after = await Promise.all(cpuReaders.map((read) => read()));
  const bad = r.non2xx + r.errors + r.timeouts;
  if (bad > 0) throw new Error(`${label}: ${bad} failed requests (non-2xx ${r.non2xx})`);
  return {
    label,
    rps: r.requests.average,
    total: r.requests.total,
    p50: r.latency.p50,
    p99: r.latency.p99,
    cpuMicrosPerRequest: cpuReaders.map((_, i) => (after[i] - before[i]) / r.requests.total),
  };
}

/**
 * Unloaded latency in µs (p50, p99) of `count` sequential requests after `warmup` untimed ones.
 * `requestAt(i)` gives request i's `{ method, headers, body }`; `accept(status, text)` says whether its
 * answer is a success (the default: HTTP 200).
 */
export async function probe(
  url,
  requestAt,
  { count, warmup, accept = (status) => status === 200 },
) {
  const target = new URL(url);
  const pool = new Pool(target.origin, { connections: 1 });
  const times = [];
  try {
    for (let i = 0; i < count + warmup; i++) {
      const t0 = process.hrtime.bigint();
      const res = await pool.request({ path: target.pathname, ...requestAt(i) });
      const text = await res.body.text();
      // The clock stops when the whole response has arrived: checking it (a JSON.parse of a 450 KB
      // tools/list page costs the client milliseconds) is the load generator's time, not the server's.
      const elapsed = Number(process.hrtime.bigint() - t0) / 1000;
      if (!accept(res.statusCode, text))
        throw new Error(`probe ${url}: HTTP ${res.statusCode} ${text.slice(0, 200)}`);
      if (i >= warmup) times.push(elapsed);
    }
  } finally {
    await pool.close();
  }
  times.sort((a, b) => a - b);
  const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
  return { p50: at(0.5), p99: at(0.99) };
}

/** A numeric `--name value` option of the command line, or `fallback`. */
export function numberOption(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

/**
 * Forks a server process (`script` with `args`) that reports `{ url }` over IPC once listening and answers
 * 'cpu' with its `process.cpuUsage()` and 'stop' by exiting; resolves to the child and its URL.
 */
export function forkServer(script, args, onStarted = () => undefined, execArgv = process.execArgv) {
  const child = fork(script, args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv });
  onStarted(child);
  return new Promise((resolve, reject) => {
    child.once('message', (m) => resolve({ child, url: m.url }));
    child.once('exit', (code) => reject(new Error(`${args[0]} exited (${code})`)));
  });
}

/** A reader of a forked server's CPU time in µs (user + system), for `measure`'s `cpuReaders`. */
export const cpuOf = (child) => () =>
  new Promise((resolve) => {
    child.once('message', (m) => resolve(m.cpu.user + m.cpu.system));
    child.send('cpu');
  });

export const stopServer = (child) =>
  new Promise((resolve) => {
    child.once('exit', resolve);
    child.send('stop');
  });
