import { useState } from 'preact/hooks';
import { api, dataOf } from '../api/client.js';
import { useAction } from '../hooks/use-action.js';
import { CopyButton } from './copy-button.js';
import { FormError } from './field.js';
import { Requires } from './requires.js';

/** The webhook signing secret, fetched only when asked for and forgotten when hidden. */
export function WebhookSecret() {
  const [secret, setSecret] = useState<string | undefined>(undefined);
  const reveal = useAction(() => dataOf(api.GET('/api/webhooks/secret')));
  return (
    <section aria-labelledby="webhook-secret" class="panel">
      <h2 id="webhook-secret">Webhook signing secret</h2>
      <p class="muted">Receivers verify each event&rsquo;s signature with it (Standard Webhooks).</p>
      {/* GET /api/webhooks/secret needs manage: a key without it is told so instead of offered a button that fails. */}
      <Requires permission="manage" action="read the webhook signing secret">
        {secret === undefined ? (
          <button
            type="button"
            class="button"
            disabled={reveal.busy}
            onClick={async () => {
              const answer = await reveal.run();
              if (answer !== undefined) setSecret(answer.secret);
            }}
          >
            Reveal signing secret
          </button>
        ) : (
          <div class="secret">
            <label for="webhook-secret-value">Signing secret</label>
            <input id="webhook-secret-value" type="text" readOnly value={secret} spellcheck={false} onFocus={(event) => event.currentTarget.select()} />
            <div class="actions">
              <CopyButton text={secret} label="Copy secret" />
              <button type="button" class="button" onClick={() => setSecret(undefined)}>
                Hide
              </button>
            </div>
          </div>
        )}
      </Requires>
      <FormError text={reveal.failure?.text} />
    </section>
  );
}
