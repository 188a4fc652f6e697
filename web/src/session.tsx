import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { AuthMode } from './api/types.js';

export interface Session {
  mode: AuthMode;
  /** The key holds the manage permission (key mode): the API-keys page is for it. */
  canManage: boolean;
  signOut(): void;
}

export const SessionContext = createContext<Session>({ mode: 'api_key', canManage: false, signOut: () => undefined });

export const useSession = (): Session => useContext(SessionContext);
