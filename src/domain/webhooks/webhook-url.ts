import type { Deps } from '../context.js';
import { invalidParameter } from '../errors.js';

/**
 * A webhook URL is checked when it is given, by the rules its deliveries will meet (the transport's SSRF policy):
 * a URL that could never be delivered to is refused now, naming the field, rather than failing every attempt later.
 */
export async function checkWebhookUrl(deps: Pick<Deps, 'webhooks'>, url: string): Promise<void> {
  try {
    await deps.webhooks.check(url);
  } catch (error) {
    throw invalidParameter('webhook_url', error instanceof Error ? error.message : String(error));
  }
}
