import type { DependencyName } from './dependency-unavailable.js';

/** One service the process needs to answer requests, and a cheap round trip that proves it answers. */
export interface ReadinessCheck {
  name: DependencyName;
  /** Resolves when the service answered; rejects (or never settles) when it does not. */
  check(): Promise<void>;
}
