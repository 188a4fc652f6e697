import type { Database } from '../../ports/database.js';

const SETTING = 'webhook_secret';

/** WEBHOOK_SECRET when set; otherwise one generated on first start and kept in the database. */
export async function resolveWebhookSecret(db: Pick<Database, 'settings'>, configured: string | undefined): Promise<string> {
  if (configured !== undefined) return configured.startsWith('whsec_') ? configured : `whsec_${configured}`;
  return db.settings.getOrSet(SETTING, `whsec_${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))}`);
}
