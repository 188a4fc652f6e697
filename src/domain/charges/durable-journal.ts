import type { JournalState, StoredAnswer } from '../../ports/database.js';
import type { CallJournal } from '../../ports/image-provider.js';

export interface DurableJournal {
  journal: CallJournal;
  /** Waits for every write the journal started; a failed write is logged by `onError`, never thrown here. */
  flush(): Promise<void>;
  /** Journals the stored answer and waits for that write (and those before it); a failure is logged, not thrown. */
  recordStored(stored: StoredAnswer): Promise<void>;
}

/**
 * A call journal that writes itself to the ledger the moment a provider accepts a job or names its output, so a
 * worker that restarts (kill -9, a new machine) resumes that job and never creates, and pays for, a second one.
 * Adapters assign `job` and `output` whole; the setters see each assignment.
 */
export function durableJournal(initial: JournalState | null, save: (state: JournalState) => Promise<void>, onError: (error: unknown) => void): DurableJournal {
  let state: JournalState = { ...initial };
  const writes: Promise<void>[] = [];
  const persist = () => {
    writes.push(save(state).catch(onError));
  };
  const journal: CallJournal = {
    get job() {
      return state.job;
    },
    set job(job) {
      state = { ...state, job };
      persist();
    },
    get output() {
      return state.output;
    },
    set output(output) {
      state = { ...state, output };
      persist();
    },
  };
  const flush = async () => void (await Promise.all(writes));
  return {
    journal,
    flush,
    async recordStored(stored) {
      state = { ...state, stored };
      persist();
      await flush();
    },
  };
}
