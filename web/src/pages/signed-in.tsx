import { useEffect } from 'preact/hooks';
import { navigate } from '../router.js';

/** /sign-in when there is nothing to sign in to (already signed in, or IP allow-list mode): on to Generate. */
export function SignedIn() {
  useEffect(() => navigate('/generate', { replace: true }), []);
  return null;
}
