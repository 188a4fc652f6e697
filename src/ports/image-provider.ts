/** What a caller asks a provider for, after the domain has merged template, defaults and request. */
export interface ProviderRequest {
  /** The provider's own model name (the catalogue maps public ids to it). */
  providerModel: string;
  prompt: string;
  negativePrompt?: string;
  width: number;
  height: number;
  seed: number;
  steps?: number;
  guidance?: number;
}

export interface ProviderImage {
  bytes: Uint8Array;
  /** MIME type as the provider answered it; the domain normalises everything to PNG. */
  contentType: string;
}

export interface ProviderCallOptions {
  signal?: AbortSignal;
}

/** Thrown by providers for a refusal that retrying cannot fix (content filter, bad parameter). */
export class ProviderRefusal extends Error {
  override readonly name = 'ProviderRefusal';
}

export interface ImageProvider {
  /** Provider id as used in the catalogue, for example `local` or `workers-ai`. */
  readonly id: string;
  generate(request: ProviderRequest, options?: ProviderCallOptions): Promise<ProviderImage>;
}
