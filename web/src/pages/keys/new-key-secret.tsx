import { useEffect, useRef } from 'preact/hooks';
import type { CreatedApiKey } from '../../api/types.js';
import { CopyButton } from '../../components/copy-button.js';

/** The new key's secret, once: with a copy button and a warning that it will not be shown again. */
export function NewKeySecret({ created, onDone }: { created: CreatedApiKey; onDone: () => void }) {
  const field = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    field.current?.focus();
    field.current?.select();
  }, [created.id]);
  return (
    <div class="new-key" role="region" aria-labelledby="new-key-title">
      <h3 id="new-key-title">Key {created.name} created</h3>
      <p class="warning" id="new-key-warning">
        Copy this key now and keep it somewhere safe. It is shown only this once: imagegate keeps only its hash, so it cannot show it again.
      </p>
      <label for="new-key-value">New API key</label>
      {/* A text area, so the whole secret is visible (wrapped) at any width. */}
      <textarea
        ref={field}
        id="new-key-value"
        class="secret-value"
        rows={2}
        readOnly
        value={created.key}
        spellcheck={false}
        aria-describedby="new-key-warning"
        onFocus={(event) => event.currentTarget.select()}
      />
      <div class="actions">
        <CopyButton text={created.key} label="Copy key" />
        <button type="button" class="button" onClick={onDone}>
          I have stored it
        </button>
      </div>
    </div>
  );
}
