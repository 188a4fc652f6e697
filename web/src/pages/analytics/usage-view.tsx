import type { UsageReport } from '../../api/types.js';
import { plural } from '../../lib/format.js';
import type { StackedDay } from '../../lib/stack.js';
import { colourOf, formatDay, StackedChart } from './stacked-chart.js';

interface UsageViewProps {
  usage: UsageReport;
  models: readonly string[];
  images: readonly StackedDay[];
  costs: readonly StackedDay[];
  formatCost: (value: number) => string;
}

const busiest = (days: readonly StackedDay[]) =>
  days.reduce<StackedDay | undefined>((best, day) => (best === undefined || day.total > best.total ? day : best), undefined);

/** Totals, the two charts with one legend, and the same numbers as a table. */
export function UsageView({ usage, models, images, costs, formatCost }: UsageViewProps) {
  const average = usage.total_images === 0 ? 0 : usage.total_cost / usage.total_images;
  const top = busiest(images);
  const count = (value: number) => String(Math.round(value * 100) / 100);
  return (
    <>
      <dl class="totals">
        <div>
          <dt>Images</dt>
          <dd>{usage.total_images}</dd>
        </div>
        <div>
          <dt>Still in the gallery</dt>
          <dd>{usage.active_images}</dd>
        </div>
        <div>
          <dt>Deleted</dt>
          <dd>{usage.deleted_images}</dd>
        </div>
        <div>
          <dt>Total cost</dt>
          <dd>{formatCost(usage.total_cost)}</dd>
        </div>
        <div>
          <dt>Average per image</dt>
          <dd>{formatCost(average)}</dd>
        </div>
      </dl>
      {models.length > 0 && (
        <ul class="legend" aria-label="Models">
          {models.map((model) => (
            <li key={model}>
              <svg class="swatch" viewBox="0 0 12 12" width="12" height="12" aria-hidden="true">
                <rect width="12" height="12" rx="2" fill={colourOf(models, model)} />
              </svg>
              {model}
            </li>
          ))}
        </ul>
      )}
      <div class="charts">
        <StackedChart
          id="chart-images"
          title="Images per day"
          summary={`${plural(usage.total_images, 'image')} in total${top !== undefined && top.total > 0 ? `; most on ${formatDay(top.date)} (${top.total})` : ''}, stacked by model.`}
          days={images}
          models={models}
          format={count}
          unit="images"
        />
        <StackedChart
          id="chart-costs"
          title="Cost per day (USD)"
          summary={`${formatCost(usage.total_cost)} in total, stacked by model.`}
          days={costs}
          models={models}
          format={formatCost}
          unit=""
        />
      </div>
      <details class="data-table">
        <summary>The numbers as a table</summary>
        <div class="table-scroll" tabIndex={0} role="region" aria-label="Usage by day and model">
          <table>
            <thead>
              <tr>
                <th scope="col">Day (UTC)</th>
                <th scope="col">Model</th>
                <th scope="col">Images</th>
                <th scope="col">Cost</th>
              </tr>
            </thead>
            <tbody>
              {usage.by_day_and_model.map((row) => (
                <tr key={`${row.date} ${row.model}`}>
                  <td>{row.date}</td>
                  <td>{row.model}</td>
                  <td>{row.images}</td>
                  <td>{formatCost(row.cost)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </>
  );
}
