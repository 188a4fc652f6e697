import type { ServerResponse } from 'node:http';
import { sampleImages, type FakeOptions, type StartedFake } from '../../../test-support/fake-images.js';
import { sendJson, startLoopbackServer, type LoopbackServer, type ReceivedForm, type Responder } from '../../../test-support/loopback-server.js';
import { openAiSuccess } from '../openai/openai.fake.js';

/*
 * An Azure OpenAI resource on loopback, answering as Azure's REST API does. Followed:
 * - the latest preview inference reference (learn.microsoft.com/azure/ai-foundry/openai/reference-preview, ms.date
 *   2026-05-14): `POST /openai/deployments/{deployment-id}/images/generations` (JSON) and `/images/edits`
 *   (multipart) with `api-version` a required query parameter and the key in `api-key`; the answer
 *   `{ created, data: [{ b64_json }], usage }` of the gpt-image-1 series, which is OpenAI's ImagesResponse, so the
 *   body is parsed and answered by ../openai/openai.fake.ts (streaming included);
 * - Models - List (learn.microsoft.com/rest/api/azureopenai/models/list): `GET /openai/models?api-version=2024-10-21`;
 * - openai-node's AzureOpenAI (openai/openai-node src/azure.ts, node_modules/openai 7.57.0) for the path and the header;
 * - Azure's error bodies `{ error: { code, message } }`: `DeploymentNotFound` (404) for a deployment the resource
 *   lacks, `401` for a wrong key ("Access denied due to invalid subscription key or wrong API endpoint..."),
 *   `404 Resource not found` without an api-version, `OperationNotSupported` (400) for a deployment whose model
 *   makes no images, the content filter's 400 (`contentFilterAnswer`) and a 429 with `retry-after` and
 *   `retry-after-ms` (`rateLimitAnswer`), as Azure answers them and as the openai-cookbook's Azure examples read them.
 */

/** The key the fake's resource accepts unless told otherwise. */
export const FAKE_AZURE_KEY = 'azure-fake-key-0123456789abcdef';
/** Deployment name to the model it serves: the fake resource's deployments unless told otherwise. */
export const FAKE_AZURE_DEPLOYMENTS: Readonly<Record<string, string>> = {
  'images-prod': 'gpt-image-2',
  'images-legacy': 'gpt-image-1.5',
  'chat-prod': 'gpt-4.1',
};
/** api-versions the fake knows: the GA one of Models - List, the preview one of the image operations. */
const KNOWN_VERSIONS = new Set(['2024-10-21', '2025-04-01-preview']);

export interface AzureFakeOptions {
  /** The base64 image every generation answers. */
  imageBase64: string;
  /** Where the edit forms the fake parsed are pushed. */
  received?: ReceivedForm[];
  deployments?: Readonly<Record<string, string>>;
  apiKey?: string;
}

const azureError = (response: ServerResponse, status: number, code: string, message: string, headers: Record<string, string> = {}): void =>
  sendJson(response, status, { error: { code, message } }, headers);

/** Azure's answer to a prompt its content filter blocked (image operations: code and inner error as Azure sends them). */
export const contentFilterAnswer: Responder = (_request, response) =>
  sendJson(response, 400, {
    error: {
      code: 'content_policy_violation',
      message: 'Your request was rejected as a result of our safety system. Your prompt may contain text that is not allowed by our safety system.',
      param: 'prompt',
      type: null,
      innererror: {
        code: 'ResponsibleAIPolicyViolation',
        content_filter_result: {
          hate: { filtered: false, severity: 'safe' },
          self_harm: { filtered: false, severity: 'safe' },
          sexual: { filtered: false, severity: 'safe' },
          violence: { filtered: true, severity: 'medium' },
          jailbreak: { filtered: false, detected: false },
        },
      },
    },
  });

/** Azure's rate limit: `retry-after` in whole seconds and `retry-after-ms`, with its words. */
export const rateLimitAnswer =
  (retryAfterMs: number): Responder =>
  (_request, response) =>
    azureError(
      response,
      429,
      '429',
      `Requests to the ImageGenerations_Create Operation under Azure OpenAI API version 2025-04-01-preview have exceeded call rate limit of your current AIServices S0 pricing tier. Please retry after ${Math.ceil(retryAfterMs / 1000)} seconds. Please go here: https://aka.ms/oai/quotaincrease if you would like to further increase the default rate limit.`,
      { 'retry-after': String(Math.ceil(retryAfterMs / 1000)), 'retry-after-ms': String(retryAfterMs) },
    );

/** The fake resource: its deployments, its key, its api-versions; a generation or an edit answered as OpenAI's. */
export function azureOpenAiSuccess(options: AzureFakeOptions): Responder {
  const deployments = options.deployments ?? FAKE_AZURE_DEPLOYMENTS;
  const apiKey = options.apiKey ?? FAKE_AZURE_KEY;
  const openAi = openAiSuccess(options.imageBase64, options.received);
  return async (request, response, server) => {
    const url = new URL(request.path, 'http://fake');
    if (request.headers['api-key'] !== apiKey) {
      return azureError(
        response,
        401,
        '401',
        'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.',
      );
    }
    const version = url.searchParams.get('api-version');
    if (version === null) return azureError(response, 404, '404', 'Resource not found');
    if (!KNOWN_VERSIONS.has(version)) return azureError(response, 400, 'BadRequest', 'API version not supported');
    if (request.method === 'GET' && url.pathname === '/openai/models') {
      const models = ['gpt-image-2', 'gpt-image-1.5', 'gpt-image-1-mini', 'gpt-4.1'];
      return sendJson(response, 200, { data: models.map((id) => ({ id, object: 'model', status: 'succeeded', lifecycle_status: 'generally-available' })) });
    }
    const call = /^\/openai\/deployments\/([^/]+)\/images\/(generations|edits)$/.exec(url.pathname);
    if (request.method !== 'POST' || call === null) return azureError(response, 404, '404', 'Resource not found');
    const [, deployment = '', operation = ''] = call;
    const model = deployments[decodeURIComponent(deployment)];
    if (model === undefined) {
      return azureError(
        response,
        404,
        'DeploymentNotFound',
        'The API deployment for this resource does not exist. If you created the deployment within the last 5 minutes, please wait a moment and try again.',
      );
    }
    if (!model.startsWith('gpt-image') && !model.startsWith('dall-e')) {
      const name = operation === 'edits' ? 'imagesEdit' : 'imagesGenerate';
      return azureError(
        response,
        400,
        'OperationNotSupported',
        `The ${name} operation does not work with the specified model, ${model}. Please choose different model and try again.`,
      );
    }
    // The deployment, not the body's `model`, decides the model at Azure; the body and the answer are OpenAI's.
    return openAi({ ...request, path: `/v1/images/${operation}` }, response, server);
  };
}

/** An Azure OpenAI resource on loopback with FAKE_AZURE_DEPLOYMENTS and FAKE_AZURE_KEY. */
export async function startAzureOpenAiFake(options: FakeOptions = {}): Promise<StartedFake & { server: LoopbackServer }> {
  const images = await sampleImages();
  const server = await startLoopbackServer(azureOpenAiSuccess({ imageBase64: images[options.answer ?? 'png'].toString('base64') }));
  return { baseUrl: server.origin, server, close: () => server.close() };
}
