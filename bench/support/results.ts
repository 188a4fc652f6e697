import fs from 'node:fs';
import path from 'node:path';

/** One line of the table: what was measured against what the issue asks for. */
export interface BenchResult {
  scenario: string;
  measured: string;
  target: string;
  met: boolean;
  /** Raw figures behind `measured`, for latest.json. */
  details?: Record<string, unknown>;
}

export const RESULTS_DIR = path.resolve(import.meta.dirname, '../results');

export function markdownTable(results: readonly BenchResult[]): string {
  const escape = (text: string) => text.replaceAll('|', '\\|');
  const rows = results.map((r) => `| ${escape(r.scenario)} | ${escape(r.measured)} | ${escape(r.target)} | ${r.met ? 'yes' : 'no'} |`);
  return ['| Scenario | Measured | Target | Met |', '| --- | --- | --- | --- |', ...rows].join('\n');
}

export interface RunInfo {
  startedAt: string;
  seconds: number;
  node: string;
  cpus: number;
  settings: Record<string, unknown>;
  notes: string[];
}

export function writeResults(results: readonly BenchResult[], info: RunInfo): { json: string; md: string } {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const json = path.join(RESULTS_DIR, 'latest.json');
  const md = path.join(RESULTS_DIR, 'latest.md');
  fs.writeFileSync(json, `${JSON.stringify({ ...info, results }, null, 2)}\n`);
  const header = [
    `# imagegate benchmarks`,
    '',
    `Run ${info.startedAt}, ${Math.round(info.seconds)} s, Node ${info.node}, ${info.cpus} CPUs. Settings: ${Object.entries(info.settings)
      .map(([k, v]) => `${k}=${String(v)}`)
      .join(', ')}.`,
    '',
  ];
  const notes = info.notes.length === 0 ? [] : ['', ...info.notes.map((note) => `- ${note}`)];
  fs.writeFileSync(md, `${[...header, markdownTable(results), ...notes].join('\n')}\n`);
  return { json, md };
}
