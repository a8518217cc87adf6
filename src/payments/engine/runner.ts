// The engine inside the payment service: every `pollIntervalMs` it runs the transitions due at the
// service clock's now (injected: tests drive it), one run at a time. stop() ends the loop and waits for
// a run in progress, so shutdown never cuts a transaction in half (a crash does not either: each
// transition commits on its own).
import type { EngineReport, EngineSettings } from './executor.js';
import { runEngine } from './executor.js';

export interface EngineRunnerOptions extends EngineSettings {
  readonly pollIntervalMs: number;
  readonly now: () => Date;
  readonly onReport?: (report: EngineReport) => void;
  readonly onError?: (error: unknown) => void;
}

export interface EngineRunner {
  /** Runs the due transitions now (between polls); resolves with what it did. */
  runOnce(): Promise<EngineReport>;
  stop(): Promise<void>;
}

export function startEngineRunner(options: EngineRunnerOptions): EngineRunner {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<EngineReport> | undefined;

  const runOnce = (): Promise<EngineReport> => {
    // One run at a time: a caller during a run waits for it, then gets a run of its own.
    const previous = running ?? Promise.resolve(undefined);
    const next = previous.catch(() => undefined).then(() => runEngine(options, options.now()));
    running = next;
    void next
      .finally(() => {
        if (running === next) running = undefined;
      })
      .catch(() => undefined);
    return next;
  };

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      runOnce()
        .then((report) => options.onReport?.(report))
        .catch((error: unknown) => options.onError?.(error))
        .finally(schedule);
    }, options.pollIntervalMs);
    timer.unref();
  };
  schedule();

  return {
    runOnce,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running?.catch(() => undefined);
    },
  };
}
