import type { ImageProvider } from '../ports/image-provider.js';
import type { FakeOptions, StartedFake } from './fake-images.js';

/** Requests of a provider that bills per accepted job, as the shared suite needs to tell them apart. */
export interface JobFlow {
  /** After the job exists: a status check or the result read. */
  isResultFetch(method: string, path: string): boolean;
  /** The output file. */
  isDownload(method: string, path: string): boolean;
}

/** One adapter with a loopback fake that answers success by default; the shared suite runs against each. */
export interface ProviderSubject {
  name: string;
  providerId: string;
  modelId: string;
  startFake(options?: FakeOptions): Promise<StartedFake>;
  create(baseUrl: string): ImageProvider;
  /** Generation requests (model, sizes, steps) and the cost each must record, from the provider's price list. */
  costCases: { request: Record<string, unknown>; cost: number }[];
  /** Set for providers that accept a job and deliver it later: a retry must never create a second one. */
  jobs?: JobFlow;
}
