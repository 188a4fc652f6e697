import { useState } from 'preact/hooks';
import { api, dataOf } from '../../api/client.js';
import type { ApiKey, CreatedApiKey } from '../../api/types.js';
import { Loading } from '../../components/loading.js';
import { PageHeading } from '../../components/page-heading.js';
import { WebhookSecret } from '../../components/webhook-secret.js';
import { useLoad } from '../../hooks/use-load.js';
import { useSession } from '../../session.js';
import { CreateKeyForm } from './create-key-form.js';
import { EditKeyForm } from './edit-key-form.js';
import { KeyTable } from './key-table.js';
import { NewKeySecret } from './new-key-secret.js';

export function KeysPage() {
  const session = useSession();
  if (session.mode !== 'api_key') {
    return (
      <>
        <PageHeading title="API keys" />
        <p>This server admits clients by IP address (IP allow-list mode), so it uses no API keys.</p>
        <WebhookSecret />
      </>
    );
  }
  return <KeyManagement />;
}

function KeyManagement() {
  const { loaded, reload } = useLoad((signal) => dataOf(api.GET('/api/keys', { params: { query: { limit: 100 } }, signal })), []);
  // The secret exists only here, in memory: a reload or leaving the page forgets it for good.
  const [created, setCreated] = useState<CreatedApiKey | undefined>(undefined);
  const [editing, setEditing] = useState<ApiKey | undefined>(undefined);
  const [saved, setSaved] = useState<string | undefined>(undefined);
  return (
    <>
      <PageHeading title="API keys" />
      <section aria-labelledby="key-list">
        <h2 id="key-list">Keys</h2>
        <p role="status" class="inline-status">
          {saved}
        </p>
        <Loading loaded={loaded} label="keys">
          {({ keys }) => (
            <KeyTable
              keys={keys}
              onRevoked={reload}
              onEdit={(key) => {
                setSaved(undefined);
                setEditing(key);
              }}
            />
          )}
        </Loading>
      </section>
      {editing !== undefined && (
        <EditKeyForm
          key={editing.id}
          apiKey={editing}
          onDone={(changed) => {
            setEditing(undefined);
            if (changed === undefined) return;
            setSaved(`Saved the changes to ${changed.name}.`);
            reload();
          }}
        />
      )}
      <div class="panels">
        <section aria-labelledby="create-key" class="panel">
          <h2 id="create-key">New key</h2>
          {created !== undefined && <NewKeySecret created={created} onDone={() => setCreated(undefined)} />}
          <CreateKeyForm
            onCreated={(key) => {
              setCreated(key);
              reload();
            }}
          />
        </section>
        <WebhookSecret />
      </div>
    </>
  );
}
