/** One sample of the Prometheus text format: `name{label="value",...} value`. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)(?: \d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** Every sample of an exposition, comments (# HELP, # TYPE) left out. */
export function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = LINE.exec(line);
    if (match === null) throw new Error(`not a Prometheus sample: ${line}`);
    const [, name = '', labelText = '', value = ''] = match;
    const labels: Record<string, string> = {};
    for (const [, label = '', raw = ''] of labelText.matchAll(LABEL)) labels[label] = raw.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    samples.push({ name, labels, value: Number(value) });
  }
  return samples;
}

/** The samples of one series name, keyed by their labels in name order (`method=GET route=/x`), for exact comparisons. */
export function seriesOf(samples: readonly Sample[], name: string): Record<string, number> {
  const series: Record<string, number> = {};
  for (const sample of samples) {
    if (sample.name !== name) continue;
    const key = Object.keys(sample.labels)
      .sort()
      .map((label) => `${label}=${sample.labels[label] ?? ''}`)
      .join(' ');
    series[key] = sample.value;
  }
  return series;
}
