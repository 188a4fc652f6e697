import { BedrockRuntimeClient, InvokeModelCommand, ListAsyncInvokesCommand, type BedrockRuntimeClientConfig } from '@aws-sdk/client-bedrock-runtime';
import type { ImageProvider, ProviderRequest } from '../../../ports/image-provider.js';
import { ProviderRefusal } from '../../../ports/image-provider.js';
import type { OfflineImageWork } from '../provider-spec.js';
import { bedrockFailure, type CallContext } from './bedrock-errors.js';
import { bedrockBody, isInpaintModel, stabilityAnswer } from './bedrock-request.js';

export interface BedrockOptions {
  /** BEDROCK_REGION: the Bedrock runtime of that region (us-west-2 serves every active model of the catalogue). */
  region: string;
  /** BEDROCK_ENDPOINT: another address for the runtime (a proxy, a VPC endpoint, the loopback fake). */
  endpoint?: string;
  /** Static keys (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY), or a provider; otherwise the SDK's default chain (Node). */
  credentials?: BedrockRuntimeClientConfig['credentials'];
  /** Otherwise the SDK's own: NodeHttp2Handler on Node, fetch on Workers. */
  requestHandler?: BedrockRuntimeClientConfig['requestHandler'];
  /** Converts masks to the inpaint model's white-means-change greyscale (the CPU pool on Node, inline on Workers). */
  masks?: Pick<OfflineImageWork, 'inpaintMask'>;
}

/**
 * The mask in Stability's semantics, converted before anything is sent: a mask that cannot be read is the caller's
 * to fix (a refusal, never retried), and nothing was paid for.
 */
async function convertedMask(request: ProviderRequest, masks: BedrockOptions['masks'], signal: AbortSignal | undefined): Promise<Uint8Array | undefined> {
  if (request.mask === undefined || !isInpaintModel(request.providerModel)) return undefined;
  if (masks === undefined) throw new Error('Bedrock inpainting needs the CPU pool to convert the mask, and the adapter was built without one');
  try {
    return await masks.inpaintMask(request.mask.bytes, { signal });
  } catch (error) {
    if (signal?.aborted === true) throw error;
    throw new ProviderRefusal(`the mask could not be read: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * Amazon Bedrock through the AWS SDK: InvokeModel (`POST /model/{modelId}/invoke`, SigV4-signed JSON) per image. The
 * SDK's own retries are off (`maxAttempts: 1`): the resilience layer is the only one that sends a request again, and
 * only when Bedrock provably did not act on it, so a paid image is never asked for twice.
 */
export function createBedrockProvider(options: BedrockOptions, parametersOf: (model: string) => ReadonlySet<string> = () => new Set()): ImageProvider {
  const client = new BedrockRuntimeClient({
    region: options.region,
    endpoint: options.endpoint,
    credentials: options.credentials,
    requestHandler: options.requestHandler,
    maxAttempts: 1,
  });
  const context = (model: string): CallContext => ({ model, region: options.region });
  return {
    id: 'bedrock',
    async generate(request, callOptions) {
      const signal = callOptions?.signal;
      const body = bedrockBody(request, parametersOf(request.providerModel), await convertedMask(request, options.masks, signal));
      const command = new InvokeModelCommand({
        modelId: request.providerModel,
        contentType: 'application/json',
        accept: 'application/json',
        body: new TextEncoder().encode(JSON.stringify(body)),
      });
      let answer;
      try {
        answer = await client.send(command, { abortSignal: signal });
      } catch (error) {
        throw bedrockFailure(error, context(request.providerModel));
      }
      return stabilityAnswer(answer.body);
    },
    /*
     * The runtime has no model list; its one read-only call is ListAsyncInvokes (`GET /async-invoke`), free and
     * generating nothing. A signed call AWS rejects for the identity's permissions (AccessDeniedException) still proves
     * the credentials and the region good: AWS authenticates before it authorizes. Model access is not checked.
     */
    async check(signal) {
      const endpoint = 'GET /async-invoke';
      try {
        await client.send(new ListAsyncInvokesCommand({ maxResults: 1 }), { abortSignal: signal });
        return { ok: true, endpoint, detail: `answered 200 in ${options.region} (model access is checked only by generating)` };
      } catch (error) {
        if (error instanceof Error && error.name === 'AccessDeniedException') {
          return {
            ok: true,
            endpoint,
            detail: 'answered 403 AccessDeniedException: the credentials are good, this identity may only not list async invocations',
          };
        }
        const failure = bedrockFailure(error, context('(no model)'));
        return { ok: false, endpoint, detail: failure instanceof Error ? failure.message : String(failure) };
      }
    },
  };
}
