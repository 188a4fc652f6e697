import { useState } from 'preact/hooks';
import { keyStore } from '../api/client.js';
import { loadMe } from '../api/session.js';
import type { Me } from '../api/types.js';
import { control, Field } from '../components/field.js';
import { PageHeading } from '../components/page-heading.js';
import { useAction } from '../hooks/use-action.js';

/** Key mode only: the key is checked against the API, then kept in this tab's session storage. */
export function SignIn({ reason, onSignedIn }: { reason: string | undefined; onSignedIn: (me: Me) => void }) {
  const [key, setKey] = useState('');
  const signIn = useAction(async (candidate: string) => {
    const me = await loadMe(candidate);
    keyStore.set(candidate);
    onSignedIn(me);
  });
  const error = signIn.failure?.text;

  return (
    <section class="narrow">
      <PageHeading title="Sign in" />
      <p>
        This server asks for an API key. The first start printed an admin key in its log (or it is the server&rsquo;s <code>ADMIN_API_KEY</code>); more are made
        on the API keys page or with <code>npx imagegate keys create</code>.
      </p>
      {reason !== undefined && error === undefined && (
        <p class="form-error" role="alert">
          {reason}
        </p>
      )}
      <form
        class="stack"
        onSubmit={(event) => {
          event.preventDefault();
          void signIn.run(key.trim());
        }}
      >
        <Field id="api-key" label="API key" hint="Kept in this browser tab only, until you sign out or close it." error={error}>
          <input
            {...control('api-key', { hint: true, error })}
            type="password"
            autoComplete="off"
            spellcheck={false}
            required
            value={key}
            onInput={(event) => setKey(event.currentTarget.value)}
          />
        </Field>
        <div class="actions">
          <button type="submit" class="button primary" disabled={signIn.busy}>
            {signIn.busy ? 'Signing in…' : 'Sign in'}
          </button>
        </div>
      </form>
    </section>
  );
}
