import { api, dataOf } from '../../api/client.js';
import type { ApiKey } from '../../api/types.js';
import { ConfirmButton } from '../../components/confirm-button.js';
import { FormError } from '../../components/field.js';
import { StatusBadge } from '../../components/status-badge.js';
import { useAction } from '../../hooks/use-action.js';
import { formatDateTime, formatUsd } from '../../lib/format.js';
import { useSession } from '../../session.js';

/** The id of the key ADMIN_API_KEY defines: the server refuses to revoke it (409), so nothing offers to. */
export const ENV_ADMIN_KEY_ID = 'key_admin_env';
const ENV_ADMIN_REASON = 'it is the ADMIN_API_KEY key: change or unset ADMIN_API_KEY and restart to retire it';

/** Why a key cannot be revoked from here (it is this tab's own key, or ADMIN_API_KEY's), in the API's words. */
export function notRevocable(key: ApiKey, own: { id: string; not_revocable_reason: string | null } | null): string | undefined {
  if (own !== null && key.id === own.id) return own.not_revocable_reason ?? 'a key cannot revoke itself';
  if (key.id === ENV_ADMIN_KEY_ID) return ENV_ADMIN_REASON;
  return undefined;
}

interface KeyListProps {
  onRevoked: () => void;
  onEdit: (key: ApiKey) => void;
}

/**
 * A table on wide screens; on a phone each key is a card whose cells carry their own labels (data-label). A key
 * that cannot be revoked says so in a few words in its row, with the reason as a numbered note under the table
 * (a sentence squeezed into the actions column ran to six lines).
 */
export function KeyTable({ keys, onRevoked, onEdit }: KeyListProps & { keys: ApiKey[] }) {
  const own = useSession().me?.key ?? null;
  const kept = keys.flatMap((key) => {
    const reason = key.status === 'active' ? notRevocable(key, own) : undefined;
    return reason === undefined ? [] : [{ key, reason }];
  });
  const notes = new Map(kept.map(({ key, reason }, index) => [key.id, { number: index + 1, reason }]));
  return (
    <>
      <div class="table-scroll" tabIndex={0} role="region" aria-label="API keys">
        <table class="key-table">
          <thead>
            <tr>
              <th scope="col">Name and prefix</th>
              <th scope="col">Permissions</th>
              <th scope="col">Plan</th>
              <th scope="col">Spent (budget)</th>
              <th scope="col">Expires</th>
              <th scope="col">Last used</th>
              <th scope="col">Status</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {keys.map((key) => (
              <KeyRow key={key.id} apiKey={key} note={notes.get(key.id)} onRevoked={onRevoked} onEdit={onEdit} />
            ))}
          </tbody>
        </table>
      </div>
      {kept.length > 0 && (
        <ol class="table-notes" aria-label="Why some keys cannot be revoked">
          {kept.map(({ key, reason }, index) => (
            <li key={key.id} id={noteId(index + 1)}>
              Revoke is not offered for {key.name} because {reason}.
            </li>
          ))}
        </ol>
      )}
    </>
  );
}

const noteId = (number: number) => `revoke-note-${number}`;

function KeyRow({ apiKey, note, onRevoked, onEdit }: KeyListProps & { apiKey: ApiKey; note: { number: number; reason: string } | undefined }) {
  const revoke = useAction(async () => {
    await dataOf(api.DELETE('/api/keys/{id}', { params: { path: { id: apiKey.id } } }));
    onRevoked();
  });
  const own = useSession().me?.key ?? null;
  return (
    <tr>
      <th scope="row">
        {apiKey.name} {own?.id === apiKey.id && <span class="badge">this key</span>} <code class="key-prefix">{apiKey.prefix}…</code>
      </th>
      <td data-label="Permissions">{apiKey.permissions.join(', ')}</td>
      <td data-label="Plan">
        {apiKey.plan} ({apiKey.rate_limit}/min)
      </td>
      <td data-label="Spent (budget)">
        <Spend label="Today" spent={apiKey.spend.today_usd} budget={apiKey.daily_budget_usd} />
        <Spend label="This month" spent={apiKey.spend.this_month_usd} budget={apiKey.monthly_budget_usd} />
      </td>
      <td data-label="Expires">{apiKey.expires_at === null ? 'never' : formatDateTime(apiKey.expires_at)}</td>
      <td data-label="Last used">{formatDateTime(apiKey.last_used_at)}</td>
      <td data-label="Status">
        <StatusBadge status={apiKey.status} />
      </td>
      <td>
        <div class="row-actions">
          {apiKey.status !== 'revoked' && (
            <button type="button" class="button small" aria-label={`Change ${apiKey.name}`} onClick={() => onEdit(apiKey)}>
              Change
            </button>
          )}
          {apiKey.status === 'active' && note === undefined && (
            <ConfirmButton
              label="Revoke"
              name={`Revoke ${apiKey.name}`}
              question={`Revoke ${apiKey.name}? Clients using it stop working at once.`}
              confirmLabel="Yes, revoke"
              busy={revoke.busy}
              onConfirm={() => revoke.run()}
            />
          )}
          {note !== undefined && (
            <a
              class="not-revocable"
              href={`#${noteId(note.number)}`}
              title={`Revoke is not offered because ${note.reason}.`}
              aria-label={`Not revocable, see note ${note.number}`}
            >
              Not revocable<sup>{note.number}</sup>
            </a>
          )}
        </div>
        <FormError text={revoke.failure?.text} />
      </td>
    </tr>
  );
}

/** What a key spent in one window beside its budget for it, in words. */
function Spend({ label, spent, budget }: { label: string; spent: number; budget: number | null }) {
  return (
    <span class="spend">
      <span class="muted">{label}:</span> {formatUsd(spent)} {budget === null ? <span class="muted">(no budget)</span> : `of ${formatUsd(budget)}`}
    </span>
  );
}
