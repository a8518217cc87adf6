// Runs services until SIGTERM/SIGINT, then shuts them down gracefully: readiness fails at once, listeners
// stop accepting, in-flight requests finish within the grace period, stores close, exit code 0.
import type { Logger } from './log/logger.js';
import type { Service } from './service.js';

export interface SignalSource {
  once(signal: 'SIGTERM' | 'SIGINT', listener: () => void): unknown;
}

export function shutdownOnSignal(
  services: readonly Service[],
  options: { graceMs: number; logger: Logger; signals: SignalSource },
): Promise<void> {
  return new Promise((resolve) => {
    let started = false;
    const stop = (signal: string) => {
      if (started) return;
      started = true;
      options.logger.info({ signal, graceMs: options.graceMs }, 'shutting down');
      for (const service of services) service.beginDrain();
      Promise.allSettled(services.map((s) => s.close(options.graceMs))).then((results) => {
        for (const [i, result] of results.entries()) {
          if (result.status === 'rejected') {
            options.logger.error(
              { err: result.reason, service: services[i]?.name },
              'shutdown error',
            );
          }
        }
        options.logger.info('stopped');
        resolve();
      });
    };
    options.signals.once('SIGTERM', () => stop('SIGTERM'));
    options.signals.once('SIGINT', () => stop('SIGINT'));
  });
}
