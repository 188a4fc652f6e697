import fs from 'node:fs';
import { sleep } from './context.js';

/** What the server's memory probe (memory-probe.mjs) and /proc/<pid>/status say at one moment, in MB. */
export interface MemoryReading {
  rss: number;
  /** Anonymous memory (heaps of every thread, malloc) and file-backed pages (node, libvips and other libraries). */
  rssAnon: number;
  rssFile: number;
  threads: number;
  heapUsed: number;
  heapTotal: number;
  /** Of the main thread's heap: the old generation (used / committed) and the young generation (committed). */
  oldUsed: number;
  oldSize: number;
  newSize: number;
  external: number;
  arrayBuffers: number;
}

const MB = 1024 * 1024;

interface ProbeAnswer {
  at: number;
  usage: NodeJS.MemoryUsage;
  spaces: Record<string, { used: number; size: number } | undefined>;
}

function status(pid: number): (field: string) => number {
  const text = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return (field) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? Number.NaN);
}

/** Signals the probe (SIGWINCH as is, SIGUSR2 after a full collection) and waits for its answer. */
export async function readMemory(pid: number, probeFile: string, collectFirst = false): Promise<MemoryReading> {
  const asked = Date.now();
  process.kill(pid, collectFirst ? 'SIGUSR2' : 'SIGWINCH');
  for (let waited = 0; ; waited += 50) {
    await sleep(50);
    const answer = fs.existsSync(probeFile) ? (JSON.parse(fs.readFileSync(probeFile, 'utf8')) as ProbeAnswer) : undefined;
    if (answer !== undefined && answer.at >= asked) {
      const field = status(pid);
      const { usage, spaces } = answer;
      return {
        rss: field('VmRSS') / 1024,
        rssAnon: field('RssAnon') / 1024,
        rssFile: field('RssFile') / 1024,
        threads: field('Threads'),
        heapUsed: usage.heapUsed / MB,
        heapTotal: usage.heapTotal / MB,
        oldUsed: (spaces.old_space?.used ?? 0) / MB,
        oldSize: (spaces.old_space?.size ?? 0) / MB,
        newSize: (spaces.new_space?.size ?? 0) / MB,
        external: usage.external / MB,
        arrayBuffers: usage.arrayBuffers / MB,
      };
    }
    if (waited > 10_000) throw new Error(`the memory probe of pid ${pid} did not answer within 10 s`);
  }
}

export const describeReading = (m: MemoryReading): string =>
  `RSS ${m.rss.toFixed(1)} MB (anonymous ${m.rssAnon.toFixed(1)}, files ${m.rssFile.toFixed(1)}; ${m.threads} threads); ` +
  `V8 heap ${m.heapUsed.toFixed(1)} used of ${m.heapTotal.toFixed(1)} (old ${m.oldUsed.toFixed(1)} of ${m.oldSize.toFixed(1)}, young ${m.newSize.toFixed(1)}), ` +
  `external ${m.external.toFixed(1)}, ArrayBuffers ${m.arrayBuffers.toFixed(1)}`;
