import { useEffect, useRef, useState } from 'preact/hooks';
import { niceCeiling, type StackedDay } from '../../lib/stack.js';

/** Colours for models, in order: each has at least 3:1 contrast on white, and a legend names them. */
export const MODEL_COLOURS = ['#1d4ed8', '#b45309', '#047857', '#be185d', '#6d28d9', '#0e7490', '#4d7c0f', '#b91c1c'];
export const colourOf = (models: readonly string[], model: string): string =>
  MODEL_COLOURS[Math.max(0, models.indexOf(model)) % MODEL_COLOURS.length] ?? '#1d4ed8';

const HEIGHT = 220;
const AXIS = { left: 56, right: 8, top: 10, bottom: 28 };
const dayLabel = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });
export const formatDay = (day: string): string => dayLabel.format(new Date(`${day}T00:00:00Z`));
/** About how wide a 12 px axis label is: enough to keep the last one inside the chart rather than cut off. */
const LABEL_CHAR_PX = 7;

interface StackedChartProps {
  id: string;
  title: string;
  summary: string;
  days: readonly StackedDay[];
  models: readonly string[];
  format: (value: number) => string;
  unit: string;
}

/** Bars per UTC day, stacked by model, drawn at the width it is given (so text stays legible on a phone). */
export function StackedChart({ id, title, summary, days, models, format, unit }: StackedChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(640);
  useEffect(() => {
    const element = box.current;
    if (element === null) return;
    const observer = new ResizeObserver(() => setWidth(Math.max(280, Math.floor(element.clientWidth))));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const max = niceCeiling(Math.max(0, ...days.map((day) => day.total)));
  const plotWidth = width - AXIS.left - AXIS.right;
  const plotHeight = HEIGHT - AXIS.top - AXIS.bottom;
  const band = plotWidth / Math.max(1, days.length);
  const barWidth = Math.max(2, Math.min(40, band * 0.7));
  const y = (value: number) => AXIS.top + plotHeight - (value / max) * plotHeight;
  const labelEvery = Math.max(1, Math.ceil(days.length / Math.max(1, Math.floor(plotWidth / 64))));

  return (
    <figure class="chart" aria-labelledby={`${id}-title`}>
      <figcaption id={`${id}-title`}>{title}</figcaption>
      <div ref={box} class="chart-box">
        <svg width={width} height={HEIGHT} viewBox={`0 0 ${width} ${HEIGHT}`} role="img" aria-label={`${title}. ${summary}`}>
          {[0, max / 2, max].map((tick) => (
            <g key={tick}>
              <line x1={AXIS.left} x2={width - AXIS.right} y1={y(tick)} y2={y(tick)} class="grid-line" />
              <text x={AXIS.left - 6} y={y(tick) + 4} text-anchor="end" class="axis-label">
                {format(tick)}
              </text>
            </g>
          ))}
          {days.map((day, i) => {
            const x = AXIS.left + i * band + (band - barWidth) / 2;
            return (
              <g key={day.date}>
                {day.segments.map((segment) => (
                  <rect
                    key={segment.model}
                    x={x}
                    width={barWidth}
                    y={y(segment.base + segment.value)}
                    height={Math.max(0, y(segment.base) - y(segment.base + segment.value))}
                    fill={colourOf(models, segment.model)}
                    class="bar"
                  >
                    <title>{`${formatDay(day.date)}, ${segment.model}: ${format(segment.value)} ${unit}`}</title>
                  </rect>
                ))}
                {/* Counted from the end, so the latest day always has its label. */}
                {(days.length - 1 - i) % labelEvery === 0 && <DayLabel center={AXIS.left + i * band + band / 2} right={width - 2} text={formatDay(day.date)} />}
              </g>
            );
          })}
        </svg>
      </div>
    </figure>
  );
}

/** A day under its bar; one that would stick out past the right edge (the latest, on a narrow chart) ends at the edge instead. */
function DayLabel({ center, right, text }: { center: number; right: number; text: string }) {
  const overflows = center + (text.length * LABEL_CHAR_PX) / 2 > right;
  return (
    <text x={overflows ? right : center} y={HEIGHT - 8} text-anchor={overflows ? 'end' : 'middle'} class="axis-label">
      {text}
    </text>
  );
}
