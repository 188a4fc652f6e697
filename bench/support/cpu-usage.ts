import fs from 'node:fs';

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux x86 and ARM). */
const HZ = 100;

interface Sample {
  at: number;
  /** CPU ticks of every process now, with its command name. */
  processes: Map<number, { comm: string; ticks: number }>;
  /** Ticks of the whole machine (/proc/stat): busy and all, every CPU together. */
  busy: number;
  /** Of `busy`, time in interrupts (irq, softirq: loopback networking runs there), which no process is charged. */
  interrupts: number;
  all: number;
}

function readProcesses(): Map<number, { comm: string; ticks: number }> {
  const processes = new Map<number, { comm: string; ticks: number }>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let text: string;
    try {
      text = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // ended between the listing and the read
    }
    // `pid (comm) state ...`: comm may hold spaces and parentheses, so the fields start after the last ')'.
    const close = text.lastIndexOf(')');
    const fields = text.slice(close + 2).split(' ');
    // utime and stime are fields 14 and 15 of stat(5), the 12th and 13th after comm; they count every thread.
    processes.set(Number(name), { comm: text.slice(text.indexOf('(') + 1, close), ticks: Number(fields[11]) + Number(fields[12]) });
  }
  return processes;
}

function sample(): Sample {
  const cpu = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]?.trim().split(/\s+/).slice(1).map(Number) ?? [];
  // user nice system idle iowait irq softirq steal: idle and iowait are not busy.
  const all = cpu.slice(0, 8).reduce((sum, value) => sum + value, 0);
  return { at: performance.now(), processes: readProcesses(), busy: all - (cpu[3] ?? 0) - (cpu[4] ?? 0), interrupts: (cpu[5] ?? 0) + (cpu[6] ?? 0), all };
}

/** A role's share of one core over the window, in percent (200% is both cores of a 2-core machine). */
export type CpuShares = Record<string, number>;

/**
 * Starts counting CPU time; `stop` says how much each role took, from /proc/<pid>/stat before and after. A role is
 * a set of pids, or every process with that command name (`redis-server`). `machine` is every CPU's busy time,
 * `interrupts` the part no process is charged for, and `other` what is left: other processes on a shared machine.
 */
export function countCpu(roles: Record<string, { pids?: readonly number[]; comm?: string }>): { stop(): CpuShares } {
  const before = sample();
  return {
    stop() {
      const after = sample();
      const seconds = (after.at - before.at) / 1000;
      const percent = (ticks: number) => (ticks / HZ / seconds) * 100;
      const shares: CpuShares = {};
      let accounted = 0;
      for (const [role, { pids, comm }] of Object.entries(roles)) {
        let ticks = 0;
        for (const [pid, now] of after.processes) {
          if (!(pids?.includes(pid) ?? now.comm === comm)) continue;
          ticks += now.ticks - (before.processes.get(pid)?.ticks ?? 0);
        }
        accounted += ticks;
        shares[role] = percent(ticks);
      }
      // /proc/stat counts in the same ticks, for every CPU.
      const interrupts = after.interrupts - before.interrupts;
      shares.machine = percent(after.busy - before.busy);
      shares.interrupts = percent(interrupts);
      shares.other = Math.max(0, percent(after.busy - before.busy - interrupts - accounted));
      return shares;
    },
  };
}

export const describeShares = (shares: CpuShares): string =>
  Object.entries(shares)
    .map(([role, value]) => `${role} ${Math.round(value)}%`)
    .join(', ');
