// Default clocks and logger for the rate limiter.
import { performance } from 'node:perf_hooks';
import type { Clock, RateLimitLogger } from './types.js';

/**
 * Wall-clock milliseconds that never go backwards within the process: the time origin plus the
 * monotonic high-resolution timer. A sliding log relies on ordered timestamps, which Date.now()
 * (subject to NTP steps) does not guarantee.
 */
export const monotonicClock: Clock = {
  now: () => performance.timeOrigin + performance.now(),
};

export const silentLogger: RateLimitLogger = {
  warn: () => undefined,
  info: () => undefined,
};
