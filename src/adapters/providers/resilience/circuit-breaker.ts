import type { Metrics } from '../../../ports/metrics.js';

export interface CircuitBreakerOptions {
  /** Consecutive failures that open the circuit. */
  failureThreshold: number;
  /** How long an open circuit answers fast before one trial call is let through. */
  cooldownMs: number;
  now: () => number;
  /** Reports the state at every scrape, as `imagegate_provider_circuit_state{provider}`: read then, since open turns half-open with time alone. */
  report?: { provider: string; metrics: Metrics };
}

export type CircuitState = 'closed' | 'open' | 'half-open';

/**
 * Classic three-state breaker: after `failureThreshold` failures in a row calls fail fast for
 * `cooldownMs`; then one trial call decides whether to close again or stay open.
 */
export class CircuitBreaker {
  private failures = 0;
  private openedAt: number | undefined;
  private trialInFlight = false;

  constructor(private readonly options: CircuitBreakerOptions) {
    const { report } = options;
    report?.metrics.onScrape(() => report.metrics.circuitState(report.provider, this.state));
  }

  get state(): CircuitState {
    if (this.openedAt === undefined) return 'closed';
    return this.options.now() - this.openedAt >= this.options.cooldownMs ? 'half-open' : 'open';
  }

  /** Milliseconds until a trial call is allowed; 0 when calls may go ahead now. */
  retryInMs(): number {
    if (this.openedAt === undefined) return 0;
    return Math.max(0, this.openedAt + this.options.cooldownMs - this.options.now());
  }

  /** Whether a call may go ahead; in half-open state only one trial at a time. */
  tryAcquire(): boolean {
    const state = this.state;
    if (state === 'closed') return true;
    if (state === 'open' || this.trialInFlight) return false;
    this.trialInFlight = true;
    return true;
  }

  succeeded(): void {
    this.failures = 0;
    this.openedAt = undefined;
    this.trialInFlight = false;
  }

  failed(): void {
    this.trialInFlight = false;
    this.failures += 1;
    if (this.openedAt !== undefined || this.failures >= this.options.failureThreshold) this.openedAt = this.options.now();
  }

  /** A call that ended without saying anything about the provider's health (a refusal, a caller abort). */
  released(): void {
    this.trialInFlight = false;
  }
}
