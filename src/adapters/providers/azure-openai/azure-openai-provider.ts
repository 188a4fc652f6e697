import { ProviderAccountProblem, type FailureKind, type ImageProvider } from '../../../ports/image-provider.js';
import { answerFailure, checkRequest, clip, isRecord, readBody, stringAt, type ReadBody } from '../http-support.js';
import { DEFAULT_API_VERSION } from './azure-openai-deployments.js';
import { classifyOpenAiError, describeOpenAiError, generateWithImagesApi, type ImagesApi } from '../openai/images-api.js';

/*
 * Azure OpenAI's image operations are OpenAI's (same bodies, same answers, same stream events), reached per
 * deployment: `POST {endpoint}/openai/deployments/{deployment}/images/{generations|edits}?api-version=...` with the
 * key in an `api-key` header, as openai-node's AzureOpenAI client sends them (openai/openai-node src/azure.ts, as
 * shipped in node_modules/openai 7.57.0: `{endpoint}/openai` as base URL, `/deployments/{model}` inserted before
 * `/images/generations` and `/images/edits`, `api-version` as a default query parameter, `api-key` instead of a
 * bearer token) and as Azure documents them (azure-openai-models.ts). So the request, the answer and the stream
 * are ../openai/images-api.ts's; this file says where, with which key, and how Azure's errors read.
 */

export interface AzureOpenAiOptions {
  /** `https://<resource>.openai.azure.com` (a trailing `/openai` is accepted too), or a loopback fake in tests. */
  endpoint: string;
  apiKey: string;
  apiVersion: string;
  /** Which deployment serves each model (AZURE_OPENAI_DEPLOYMENTS), by OpenAI model name. */
  deployments: ReadonlyMap<string, string>;
  fetch?: typeof fetch;
}

const SERVICE = 'Azure OpenAI';

/**
 * The api-version of the credentials check: Models - List (`GET {endpoint}/openai/models`, learn.microsoft.com/rest/api/azureopenai/models/list)
 * is documented at the GA 2024-10-21 with `api-key` auth; it lists the models the resource may deploy and
 * generates nothing. Azure has no read-only call for one deployment under a key, so a wrong deployment name shows at
 * the first generation, as a 404 naming AZURE_OPENAI_DEPLOYMENTS.
 */
const CHECK_API_VERSION = '2024-10-21';

/** Azure's content filter, in either spelling it uses (the image how-to's `contentFilter`, the API's `content_filter`). */
const FILTER_CODES = new Set(['content_filter', 'contentFilter', 'content_policy_violation', 'moderation_blocked']);
const FILTER_INNER = 'ResponsibleAIPolicyViolation';
/** A deployment the resource lacks, or one whose model cannot make images: the mapping's fault, not the caller's. */
const MAPPING_CODES = new Set(['DeploymentNotFound', 'OperationNotSupported']);

const errorOf = (json: Record<string, unknown>): Record<string, unknown> => (isRecord(json.error) ? json.error : {});
/** `innererror` in Azure's chat answers, `inner_error` in its image reference (dalleError): either may come. */
const innerOf = (error: Record<string, unknown>): Record<string, unknown> =>
  isRecord(error.innererror) ? error.innererror : isRecord(error.inner_error) ? error.inner_error : {};

/** The categories a content filter flagged, from `content_filter_result` (chat) or `content_filter_results` (images). */
function filteredCategories(inner: Record<string, unknown>): string[] {
  const results = isRecord(inner.content_filter_result)
    ? inner.content_filter_result
    : isRecord(inner.content_filter_results)
      ? inner.content_filter_results
      : {};
  return Object.entries(results)
    .filter(([, result]) => isRecord(result) && result.filtered === true)
    .map(([category]) => category);
}

/** OpenAI's `message (code)`, with the categories Azure's filter flagged when it says. */
export const describeAzureError = (body: ReadBody): string | undefined => {
  const described = describeOpenAiError(body);
  const flagged = filteredCategories(innerOf(errorOf(body.json)));
  return flagged.length === 0 ? described : `${described ?? 'filtered'}; filtered: ${flagged.join(', ')}`;
};

/** Azure's 400 for an api-version it does not serve (`BadRequest`, "API version not supported"): a setting, not a request. */
const versionRefused = (status: number, error: Record<string, unknown>): boolean => status === 400 && /api[- ]version/i.test(stringAt(error.message) ?? '');

function classifyAzureError(status: number, body: ReadBody): FailureKind | undefined {
  const error = errorOf(body.json);
  const code = stringAt(error.code) ?? '';
  if (FILTER_CODES.has(code) || stringAt(innerOf(error).code) === FILTER_INNER) return 'refusal';
  if (MAPPING_CODES.has(code) || versionRefused(status, error)) return 'account';
  return classifyOpenAiError(status, body);
}

/** What the operator should look at, by what Azure said; the deployment is read back from the URL called. */
function operatorHint(status: number, body: ReadBody, url: string): string {
  const error = errorOf(body.json);
  const code = stringAt(error.code) ?? '';
  if (versionRefused(status, error)) return `check AZURE_OPENAI_API_VERSION: an api-version this resource serves for images, e.g. ${DEFAULT_API_VERSION}`;
  const deployment = /\/deployments\/([^/?]+)\//.exec(url)?.[1];
  const named = deployment === undefined ? 'the deployment' : `deployment "${decodeURIComponent(deployment)}"`;
  if (MAPPING_CODES.has(code) || (status === 404 && deployment !== undefined))
    return `${named} is not an image model deployment of this resource: check AZURE_OPENAI_DEPLOYMENTS, AZURE_OPENAI_ENDPOINT and AZURE_OPENAI_API_VERSION`;
  if (status === 401 || status === 403) return 'check AZURE_OPENAI_API_KEY: a key of this resource (Keys and Endpoint), with AZURE_OPENAI_ENDPOINT';
  return 'check the Azure OpenAI resource and AZURE_OPENAI_ENDPOINT';
}

/**
 * Azure sends its wait twice on a 429: `retry-after` in whole seconds and `retry-after-ms` in milliseconds. The
 * finer one is read, through the Retry-After the shared classification reads (fractional seconds parse).
 */
function withPreciseRetryAfter(response: Response): Response {
  const ms = response.headers.get('retry-after-ms')?.trim();
  if (ms === undefined || ms === '' || !Number.isFinite(Number(ms)) || Number(ms) < 0) return response;
  const headers = new Headers(response.headers);
  headers.set('Retry-After', String(Number(ms) / 1000));
  return new Response(null, { status: response.status, headers });
}

async function failOnAzureError(response: Response): Promise<void> {
  if (response.ok) return;
  const body = await readBody(response);
  const detail = clip(describeAzureError(body) ?? (body.isJson ? 'no error message' : `unexpected ${response.headers.get('Content-Type') ?? 'body'}`));
  const kind = classifyAzureError(response.status, body);
  const status = response.status;
  // The operator's problem: said in Azure's terms, naming the setting to fix rather than a generic *_BASE_URL.
  if (kind === 'account' || (kind === undefined && (status === 401 || status === 403 || status === 404))) {
    throw new ProviderAccountProblem(`${SERVICE} answered ${status}: ${detail} (${operatorHint(status, body, response.url)})`, status);
  }
  throw answerFailure(SERVICE, withPreciseRetryAfter(response), detail, kind);
}

/** Azure OpenAI's image deployments: generations and edits, answered and streamed as OpenAI answers them. */
export function createAzureOpenAiProvider(options: AzureOpenAiOptions): ImageProvider {
  const doFetch = options.fetch ?? fetch;
  // openai-node's `{endpoint}/openai`; an endpoint given with it already is accepted as the SDK's baseURL would be.
  const endpoint = options.endpoint.replace(/\/+$/, '').replace(/\/openai$/, '');
  const auth = { 'api-key': options.apiKey };
  const version = encodeURIComponent(options.apiVersion);
  const api: ImagesApi = {
    service: SERVICE,
    fetch: doFetch,
    urlOf(operation, providerModel) {
      const deployment = options.deployments.get(providerModel);
      if (deployment === undefined) {
        throw new ProviderAccountProblem(
          `${SERVICE} has no deployment for ${providerModel}: map it in AZURE_OPENAI_DEPLOYMENTS (${providerModel}=<deployment>)`,
        );
      }
      return `${endpoint}/openai/deployments/${encodeURIComponent(deployment)}/images/${operation}?api-version=${version}`;
    },
    auth,
    // dall-e-3's answer URLs are on Azure blob storage, another origin: the key never goes there.
    origin: endpoint,
    failOnError: failOnAzureError,
    streamRefusals: new Set([...FILTER_CODES, FILTER_INNER]),
  };
  return {
    id: 'azure-openai',
    generate: (request, callOptions) => generateWithImagesApi(api, request, callOptions),
    check: (signal) =>
      checkRequest(SERVICE, doFetch, `${endpoint}/openai/models?api-version=${CHECK_API_VERSION}`, { headers: auth, signal }, describeAzureError),
  };
}
