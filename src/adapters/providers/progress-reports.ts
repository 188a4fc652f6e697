import type { ProviderProgress } from '../../ports/image-provider.js';

export type ReportProgress = (progress: ProviderProgress) => void;

/** Reports nothing: for a caller that asked for no progress. */
export const NO_PROGRESS: ReportProgress = () => undefined;

/**
 * What the port promises of `onProgress`, enforced in one place: fractions within 0..1 and never lower than an
 * earlier one (a second sampler, a retried attempt or a new progress bar starting again from 0 keeps the highest so
 * far), no report repeating the one before, and a listener that throws never failing the call.
 */
export function steadyProgress(onProgress: ReportProgress | undefined): ReportProgress {
  if (onProgress === undefined) return NO_PROGRESS;
  let highest: number | undefined;
  let last: ProviderProgress = {};
  return (progress) => {
    const given = progress.fraction;
    if (given !== undefined && Number.isFinite(given)) highest = Math.max(highest ?? 0, Math.min(1, Math.max(0, given)));
    const next: ProviderProgress = {
      ...(highest === undefined ? {} : { fraction: highest }),
      ...(progress.message === undefined ? {} : { message: progress.message }),
    };
    if (next.fraction === last.fraction && next.message === last.message) return;
    last = next;
    try {
      onProgress(next);
    } catch {
      // The listener's own failure; the provider call carries on.
    }
  };
}

/** A step counter as tqdm prints it (`current/total`), with the total it counts to. */
export interface Steps {
  current: number;
  total: number;
}

/**
 * The last progress bar in a log, as tqdm (which diffusers' pipelines use for their denoising steps) prints it:
 * ` 45%|████▌     | 23/50 [00:04<00:05,  4.99it/s]`. The same pattern as Replicate's own client
 * (replicate-javascript lib/util.js, parseProgressFromLogs), reading the counts rather than the rounded percentage.
 * tqdm redraws its bar with a carriage return, so both `\r` and `\n` end a line.
 */
export function lastProgressBar(log: string): Steps | undefined {
  const lines = log.split(/\r\n|\r|\n/);
  for (let index = lines.length - 1; index >= 0; index -= 1) {
    const match = TQDM_BAR.exec(lines[index] ?? '');
    if (match === null) continue;
    const current = Number(match[1]);
    const total = Number(match[2]);
    if (total > 0 && current <= total) return { current, total };
  }
  return undefined;
}

const TQDM_BAR = /^\s*\d+%\s*\|.*?\|\s*(\d+)\/(\d+)/;

/** The report of a step counter: its fraction, and the step in words. */
export const stepProgress = ({ current, total }: Steps, what = 'step'): ProviderProgress => ({
  fraction: current / total,
  message: `${what} ${current}/${total}`,
});
