// A small circuit breaker: closed → open after N consecutive failures; after a cooldown one probe
// is let through (half-open); its success closes the circuit, its failure re-opens it.
import type { Clock } from './types.js';

export type BreakerState = 'closed' | 'open' | 'half-open';

export interface CircuitBreakerOptions {
  readonly failureThreshold: number;
  readonly cooldownMs: number;
  readonly clock: Clock;
  readonly onStateChange?: (state: BreakerState, previous: BreakerState) => void;
}

export class CircuitBreaker {
  #state: BreakerState = 'closed';
  #failures = 0;
  #openedAt = 0;
  #probeInFlight = false;
  readonly #options: CircuitBreakerOptions;

  constructor(options: CircuitBreakerOptions) {
    this.#options = options;
  }

  get state(): BreakerState {
    return this.#state;
  }

  /** Whether a call may go to the protected resource now. Claims the probe slot when half-open. */
  tryAcquire(): boolean {
    if (this.#state === 'closed') return true;
    if (this.#state === 'open') {
      if (this.#options.clock.now() - this.#openedAt < this.#options.cooldownMs) return false;
      this.#set('half-open');
    }
    if (this.#probeInFlight) return false;
    this.#probeInFlight = true;
    return true;
  }

  success(): void {
    this.#failures = 0;
    this.#probeInFlight = false;
    if (this.#state !== 'closed') this.#set('closed');
  }

  failure(): void {
    this.#failures++;
    if (this.#state === 'half-open') {
      this.#probeInFlight = false;
      this.#open();
    } else if (this.#state === 'closed' && this.#failures >= this.#options.failureThreshold) {
      this.#open();
    }
  }

  #open(): void {
    this.#openedAt = this.#options.clock.now();
    this.#set('open');
  }

  #set(state: BreakerState): void {
    const previous = this.#state;
    if (previous === state) return;
    this.#state = state;
    this.#options.onStateChange?.(state, previous);
  }
}
