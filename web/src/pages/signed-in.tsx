import { useEffect } from 'preact/hooks';
import { homeFor } from '../lib/landing.js';
import { navigate } from '../router.js';
import { permissionsOf, useSession } from '../session.js';

/** /sign-in when there is nothing to sign in to (already signed in, or IP allow-list mode): on to this key's first page. */
export function SignedIn() {
  const home = homeFor(permissionsOf(useSession()));
  useEffect(() => navigate(home, { replace: true }), []);
  return null;
}
