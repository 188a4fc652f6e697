export type WebhookPostResult = { status: number } | { error: string };

/** Outgoing webhook HTTP: where a URL may point, and one POST without following redirects. */
export interface WebhookTransport {
  /** Throws, with a reason for the caller, when the URL is not an allowed destination. */
  check(url: string): Promise<void>;
  post(url: string, body: string, headers: Record<string, string>, timeoutMs: number): Promise<WebhookPostResult>;
}
