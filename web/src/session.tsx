import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { AuthMode, Me, Permission } from './api/types.js';
import { refusal } from './lib/permissions.js';

export interface Session {
  mode: AuthMode;
  /** GET /api/me of the signed-in key; undefined in the IP allow-list mode, where everything is allowed. */
  me: Me | undefined;
  signOut(): void;
  /** The image types the server decodes (GET /app/config.json): PNG only on Cloudflare Workers. */
  uploadTypes: readonly string[];
}

export const SessionContext = createContext<Session>({
  mode: 'api_key',
  me: undefined,
  signOut: () => undefined,
  uploadTypes: ['image/png', 'image/jpeg', 'image/webp'],
});

export const useSession = (): Session => useContext(SessionContext);

/** What the caller holds: every permission in the IP allow-list mode, else what /api/me said (expanded). */
export const permissionsOf = (session: Session): readonly Permission[] =>
  session.mode === 'ip_allowlist' ? ['read', 'generate', 'manage'] : (session.me?.permissions ?? []);

export interface Allowance {
  allowed: boolean;
  /** Why not, in words, with what to do instead; undefined when allowed. */
  reason: string | undefined;
}

/**
 * May this session do `action`, which needs `permission`? Asked before showing a control, so a key that
 * cannot use it sees why instead of a 403.
 */
export function useAllowance(permission: Permission, action: string): Allowance {
  const held = permissionsOf(useSession());
  const allowed = held.includes(permission);
  return { allowed, reason: allowed ? undefined : refusal(action, permission, held) };
}
