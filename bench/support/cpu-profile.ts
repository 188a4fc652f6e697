import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './build.js';

/** The parts of V8's .cpuprofile (written by `node --cpu-prof`) that self time needs. */
interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number }[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

export interface SelfTime {
  /** `function (url:line)`, the url shortened to the repository or to node_modules/<package>. */
  name: string;
  ms: number;
}

/** Microseconds of the monotonic clock, which V8's profiles and process.hrtime share on one machine. */
export interface Window {
  fromUs: number;
  toUs: number;
}

export const monotonicUs = (): number => Number(process.hrtime.bigint() / 1000n);

export interface ProfileSummary {
  /** The time the summary covers: the whole profile, or the part of it inside the window. */
  totalMs: number;
  /** Time the thread spent in neither JS nor native code: waiting on I/O and timers. */
  idleMs: number;
  /** Every frame with its self time, most first (idle, program and garbage collection included). */
  frames: SelfTime[];
}

const shortUrl = (url: string): string => {
  if (url === '') return '';
  const file = url.startsWith('file://') ? url.slice('file://'.length) : url;
  const modules = file.lastIndexOf('/node_modules/');
  if (modules >= 0) return file.slice(modules + 1);
  return file.startsWith(ROOT) ? path.relative(ROOT, file) : file;
};

/**
 * Self time per function, merged across the profile's nodes by name and place (a function reached through many
 * call paths is one node per path in the profile). A sample's time is the delta to the next sample, as DevTools counts it.
 */
export function selfTimes(profile: CpuProfile, window?: Window): ProfileSummary {
  const names = new Map<number, string>();
  for (const node of profile.nodes) {
    const { functionName, url, lineNumber } = node.callFrame;
    const where = shortUrl(url);
    // lineNumber is 0-based in the profile; editors count from 1.
    names.set(node.id, `${functionName === '' ? '(anonymous)' : functionName}${where === '' ? '' : ` ${where}:${lineNumber + 1}`}`);
  }
  const totals = new Map<string, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  const from = window?.fromUs ?? profile.startTime;
  const to = window?.toUs ?? profile.endTime;
  let at = profile.startTime;
  let covered = 0;
  for (let i = 0; i < samples.length; i += 1) {
    at += deltas[i] ?? 0;
    if (at < from || at > to) continue;
    // timeDeltas[i] is the time before sample i; the time sample i stands for is the next delta.
    const micros = deltas[i + 1] ?? 0;
    covered += micros;
    const name = names.get(samples[i] ?? -1) ?? '(unknown)';
    totals.set(name, (totals.get(name) ?? 0) + micros / 1000);
  }
  const frames = [...totals].map(([name, ms]) => ({ name, ms })).sort((a, b) => b.ms - a.ms);
  return { totalMs: covered / 1000, idleMs: totals.get('(idle)') ?? 0, frames };
}

export function readProfile(file: string, window?: Window): ProfileSummary {
  return selfTimes(JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile, window);
}

/** The table of the closing notes: the top `top` frames by self time, idle left out of the percentages. */
export function formatSummary(summary: ProfileSummary, top = 25): string {
  const busy = summary.totalMs - summary.idleMs;
  const lines = [`total ${summary.totalMs.toFixed(0)} ms, idle ${summary.idleMs.toFixed(0)} ms, busy ${busy.toFixed(0)} ms (self time, % of busy)`];
  for (const frame of summary.frames.filter((f) => f.name !== '(idle)').slice(0, top)) {
    lines.push(`${frame.ms.toFixed(1).padStart(9)} ms ${((frame.ms / busy) * 100).toFixed(1).padStart(5)}%  ${frame.name}`);
  }
  return lines.join('\n');
}
