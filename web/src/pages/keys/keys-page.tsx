import { useState } from 'preact/hooks';
import { api, segment } from '../../api/client.js';
import type { ApiKey, CreatedApiKey } from '../../api/types.js';
import { ConfirmButton } from '../../components/confirm-button.js';
import { FormError } from '../../components/field.js';
import { Loading } from '../../components/loading.js';
import { PageHeading } from '../../components/page-heading.js';
import { StatusBadge } from '../../components/status-badge.js';
import { WebhookSecret } from '../../components/webhook-secret.js';
import { useAction } from '../../hooks/use-action.js';
import { useLoad } from '../../hooks/use-load.js';
import { formatDateTime } from '../../lib/format.js';
import { useSession } from '../../session.js';
import { CreateKeyForm } from './create-key-form.js';
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
  const { loaded, reload } = useLoad((signal) => api.get<{ keys: ApiKey[] }>('/api/keys?limit=100', { signal }), []);
  // The secret exists only here, in memory: a reload or leaving the page forgets it for good.
  const [created, setCreated] = useState<CreatedApiKey | undefined>(undefined);
  return (
    <>
      <PageHeading title="API keys" />
      <section aria-labelledby="key-list">
        <h2 id="key-list">Keys</h2>
        <Loading loaded={loaded} label="keys">
          {({ keys }) => <KeyTable keys={keys} onRevoked={reload} />}
        </Loading>
      </section>
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

function KeyTable({ keys, onRevoked }: { keys: ApiKey[]; onRevoked: () => void }) {
  return (
    <div class="table-scroll" tabIndex={0} role="region" aria-label="API keys">
      <table>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Prefix</th>
            <th scope="col">Permissions</th>
            <th scope="col">Plan</th>
            <th scope="col">Last used</th>
            <th scope="col">Status</th>
            <th scope="col">
              <span class="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {keys.map((key) => (
            <KeyRow key={key.id} apiKey={key} onRevoked={onRevoked} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function KeyRow({ apiKey, onRevoked }: { apiKey: ApiKey; onRevoked: () => void }) {
  const revoke = useAction(async () => {
    await api.delete(`/api/keys/${segment(apiKey.id)}`);
    onRevoked();
  });
  return (
    <tr>
      <th scope="row">{apiKey.name}</th>
      <td>
        <code>{apiKey.prefix}…</code>
      </td>
      <td>{apiKey.permissions.join(', ')}</td>
      <td>
        {apiKey.plan} ({apiKey.rate_limit}/min)
      </td>
      <td>{formatDateTime(apiKey.last_used_at)}</td>
      <td>
        <StatusBadge status={apiKey.status} />
      </td>
      <td>
        {apiKey.status === 'active' && (
          <ConfirmButton label="Revoke" name={`Revoke ${apiKey.name}`} question={`Revoke ${apiKey.name}? Clients using it stop working at once.`} confirmLabel="Yes, revoke" busy={revoke.busy} onConfirm={() => revoke.run()} />
        )}
        <FormError text={revoke.failure?.text} />
      </td>
    </tr>
  );
}
