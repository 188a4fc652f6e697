import type { AcceptedJob, CallJournal, ImageProvider, ProviderRequest } from '../../../ports/image-provider.js';
import { ProviderRefusal } from '../../../ports/image-provider.js';
import { checkRequest, downloadImage, failOnHttpError, isRecord, readBody, sleep, stringAt } from '../http-support.js';
import { bflInput, describeDetails, describeError, pollingUrlFor } from './bfl-request.js';

export interface BflOptions {
  apiKey: string;
  /** `https://api.bfl.ai`, or a loopback fake in tests. */
  baseUrl: string;
  fetch?: typeof fetch;
  /** Between status checks (default 500 ms, as BFL's own examples poll). */
  pollIntervalMs?: number;
}

/** The finished task: the signed sample URL and the seed BFL says it used. */
interface Sample {
  url: string;
  seed?: number;
}

/**
 * BFL's task statuses (its OpenAPI's StatusResponse; help.bfl.ai "Why did my request fail?"). Both moderation
 * statuses are "Not charged", and mean the prompt or an input (Request Moderated) or the output (Content Moderated)
 * was flagged: the caller's to change, never worth retrying.
 */
const MODERATED = new Set(['Request Moderated', 'Content Moderated']);

/**
 * Black Forest Labs' API: submit to `POST {base}/v1/{model}` with the `x-key` header, poll the `polling_url` it
 * answers until `Ready`, then download `result.sample`, a signed URL that expires after 10 minutes.
 *
 * Money: the task goes into the call's journal the moment BFL answers its id, before anything else, so a retry, or a
 * new process handed the stored journal after a restart, polls that task and never submits (and pays for) another.
 * BFL has no way to cancel a task (its API reference lists none), so `cancel` is left out: a task nobody waits for
 * runs to its end and is billed, which the resilience layer records as charged without an image.
 *
 * The sample URL is never journaled as the output: it is signed and short-lived, and polling the task (a free read)
 * names a fresh one, so a failed download is retried as a poll and then a download.
 */
export function createBflProvider(options: BflOptions, parametersOf: (model: string) => ReadonlySet<string> = () => new Set()): ImageProvider {
  const doFetch = options.fetch ?? fetch;
  const base = options.baseUrl.replace(/\/+$/, '');
  const key = { 'x-key': options.apiKey };
  const pollIntervalMs = options.pollIntervalMs ?? 500;

  async function submit(request: ProviderRequest, signal?: AbortSignal): Promise<AcceptedJob> {
    const body = JSON.stringify(bflInput(request, parametersOf(request.providerModel)));
    const response = await doFetch(`${base}/v1/${encodeURIComponent(request.providerModel)}`, {
      method: 'POST',
      headers: { ...key, 'Content-Type': 'application/json', Accept: 'application/json' },
      body,
      signal,
    });
    // 429 (BFL's concurrency limit) and 500/502/503 say nothing was accepted: the resilience layer may send it again.
    await failOnHttpError('Black Forest Labs', response, describeError);
    const { json } = await readBody(response);
    const id = stringAt(json.id);
    if (id === undefined) throw new Error(`Black Forest Labs answered ${response.status} to a submit without a task id`);
    return { id, urls: { polling: pollingUrlFor(stringAt(json.polling_url), id, base) } };
  }

  /** Polls the task until it finishes; answers its sample, or throws what its end status means. */
  async function finished(job: AcceptedJob, signal: AbortSignal | undefined): Promise<Sample> {
    // Checked again on the way out of the journal, which may come from the database after a restart.
    const url = pollingUrlFor(job.urls?.polling, job.id, base);
    for (;;) {
      const response = await doFetch(url, { headers: { ...key, Accept: 'application/json' }, signal });
      await failOnHttpError('Black Forest Labs', response, describeError);
      const { json } = await readBody(response);
      const status = stringAt(json.status) ?? 'no status';
      if (status === 'Ready') {
        const result = isRecord(json.result) ? json.result : {};
        const sample = stringAt(result.sample);
        if (sample === undefined) throw new Error(`Black Forest Labs task ${job.id} is Ready without a sample`);
        return typeof result.seed === 'number' ? { url: sample, seed: result.seed } : { url: sample };
      }
      if (MODERATED.has(status)) throw new ProviderRefusal(`Black Forest Labs refused task ${job.id} (${status}, not charged): ${describeDetails(json)}`);
      if (status === 'Error') throw new Error(`Black Forest Labs task ${job.id} failed: ${describeDetails(json)}`);
      // Unknown or expired: whatever it was, it is not submitted again (it may have been billed).
      if (status === 'Task not found') throw new Error(`Black Forest Labs no longer knows task ${job.id} (expired or never created); not submitted again`);
      // Pending, or a status BFL adds later: waited out until the call's deadline.
      await sleep(pollIntervalMs, signal);
    }
  }

  return {
    id: 'bfl',
    async generate(request, callOptions) {
      const signal = callOptions?.signal;
      const journal: CallJournal = callOptions?.journal ?? {};
      // Assigned whole, as soon as BFL answered: the durable journal saves it through its setter.
      if (journal.job === undefined) journal.job = await submit(request, signal);
      const sample = await finished(journal.job, signal);
      // Signed and short-lived: it needs no key, and the key never goes to the delivery host.
      const image = await downloadImage('Black Forest Labs', doFetch, sample.url, { signal, origin: base, headers: {} });
      return sample.seed === undefined ? image : { ...image, seed: sample.seed };
    },
    // The account's credit balance (BFL's OpenAPI, GET /v1/credits: `{ credits }`): read-only, needs a valid key.
    check: (signal) => checkRequest('Black Forest Labs', doFetch, `${base}/v1/credits`, { headers: key, signal }, describeError),
  };
}
