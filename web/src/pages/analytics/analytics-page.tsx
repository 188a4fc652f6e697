import { useState } from 'preact/hooks';
import { api, dataOf } from '../../api/client.js';
import { control, Field } from '../../components/field.js';
import { Loading } from '../../components/loading.js';
import { PageHeading } from '../../components/page-heading.js';
import { errorFor } from '../../hooks/use-action.js';
import { useLoad } from '../../hooks/use-load.js';
import { daysBetween, formatUsd, utcDay } from '../../lib/format.js';
import { stackByModel } from '../../lib/stack.js';
import { navigate } from '../../router.js';
import type { PageProps } from '../types.js';
import { UsageView } from './usage-view.js';

/** The last 30 UTC days, today included. */
const defaultRange = () => ({ from: utcDay(new Date(Date.now() - 29 * 86_400_000)), to: utcDay(new Date()) });

export function AnalyticsPage({ query }: PageProps) {
  const range = { from: query.get('from') ?? defaultRange().from, to: query.get('to') ?? defaultRange().to };
  const [from, setFrom] = useState(range.from);
  const [to, setTo] = useState(range.to);
  const { loaded } = useLoad((signal) => dataOf(api.GET('/api/analytics/usage', { params: { query: range }, signal })), [range.from, range.to]);
  const failure = loaded.state === 'failed' ? loaded.failure : undefined;

  return (
    <>
      <PageHeading title="Analytics" />
      <form
        class="range-form"
        aria-label="Date range"
        onSubmit={(event) => {
          event.preventDefault();
          navigate(`/analytics?${new URLSearchParams({ from, to }).toString()}`, { replace: true });
        }}
      >
        <Field id="analytics-from" label="From" error={errorFor(failure, 'from')}>
          <input
            {...control('analytics-from', { error: errorFor(failure, 'from') })}
            type="date"
            required
            value={from}
            onInput={(event) => setFrom(event.currentTarget.value)}
          />
        </Field>
        <Field id="analytics-to" label="To" error={errorFor(failure, 'to')}>
          <input
            {...control('analytics-to', { error: errorFor(failure, 'to') })}
            type="date"
            required
            value={to}
            onInput={(event) => setTo(event.currentTarget.value)}
          />
        </Field>
        <div class="filter-button">
          <button type="submit" class="button primary">
            Show
          </button>
        </div>
      </form>
      {/* A refused range is said under the date it concerns, above. */}
      {failure?.field === undefined && (
        <Loading loaded={loaded} label="usage">
          {(usage) => {
            const models = usage.by_model.map((row) => row.model);
            const days = daysBetween(range.from, range.to);
            return (
              <UsageView
                usage={usage}
                models={models}
                images={stackByModel(usage.by_day_and_model, days, models, 'images')}
                costs={stackByModel(usage.by_day_and_model, days, models, 'cost')}
                formatCost={formatUsd}
              />
            );
          }}
        </Loading>
      )}
    </>
  );
}
