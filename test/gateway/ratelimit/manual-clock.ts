// A clock tests move by hand.
import type { Clock } from '../../../src/gateway/ratelimit/types.js';

export class ManualClock implements Clock {
  #now: number;
  constructor(start = 1_700_000_000_000) {
    this.#now = start;
  }
  now(): number {
    return this.#now;
  }
  advance(ms: number): void {
    this.#now += ms;
  }
  set(ms: number): void {
    this.#now = ms;
  }
}
