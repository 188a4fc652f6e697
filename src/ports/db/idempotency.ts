/** A response kept for replay: what a retry with the same key gets back. */
export interface StoredResponse {
  status: number;
  /** Only the headers that describe the answer (Content-Type, Deprecation, ...), lower-case names. */
  headers: Record<string, string>;
  body: string;
}

export interface IdempotencyRecord {
  userId: string;
  key: string;
  /** SHA-256 (hex) of method, path and body of the request that claimed the key. */
  fingerprint: string;
  /** `running` until the first request's answer is stored. */
  state: 'running' | 'done';
  response: StoredResponse | undefined;
  createdAt: string;
  /** ISO time after which the row counts as absent and the key may be claimed again. */
  expiresAt: string;
}

export interface ClaimRequest {
  userId: string;
  key: string;
  fingerprint: string;
  now: string;
  /**
   * The end of the claim's lease: the request renews it while it runs (`renew`), so it passes only when the
   * process stopped (crashed) without answering; then the key is free again.
   */
  expiresAt: string;
}

/** `claimed`: the caller runs the request; `existing`: another request holds the key (running or done). */
export type ClaimResult = { kind: 'claimed' } | { kind: 'existing'; record: IdempotencyRecord };

/**
 * Idempotency keys per user. Claiming is atomic across processes: of two requests racing on one key exactly
 * one gets `claimed`, the other sees the running record. Expired rows are treated as absent and overwritten.
 */
export interface IdempotencyRepository {
  claim(request: ClaimRequest): Promise<ClaimResult>;
  /** Moves a running claim's lease end to `expiresAt`; a done answer, or a key no longer held, is left alone. */
  renew(userId: string, key: string, expiresAt: string): Promise<void>;
  /** Stores the answer of a claimed key, kept until `expiresAt`. */
  complete(userId: string, key: string, response: StoredResponse, expiresAt: string): Promise<void>;
  /** Frees a claimed key without an answer (the request failed on our side), so a retry can run. */
  release(userId: string, key: string): Promise<void>;
}
