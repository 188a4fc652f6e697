import type { ProviderStatus } from './catalog.js';

/** The settings each provider needs, so an unavailable model can say exactly what to set. */
export const PROVIDER_SETTINGS: Record<string, readonly string[]> = {
  local: [],
  'workers-ai': ['CLOUDFLARE_ACCOUNT_ID', 'CLOUDFLARE_API_TOKEN'],
};

export function providerStatus(provider: string, configured: ReadonlySet<string>, isSet: (setting: string) => boolean): ProviderStatus {
  if (configured.has(provider)) return { available: true };
  const needed = PROVIDER_SETTINGS[provider] ?? [];
  const missing = needed.filter((setting) => !isSet(setting));
  if (missing.length > 0) return { available: false, reason: `set ${missing.join(' and ')} to enable provider ${provider}` };
  return { available: false, reason: `provider ${provider} is not supported by this build` };
}
