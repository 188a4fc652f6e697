import {
  httpFailure,
  parseRetryAfter,
  ProviderAccountProblem,
  ProviderOutcomeUnknown,
  ProviderRefusal,
  ProviderUnavailable,
} from '../../../ports/image-provider.js';
import { isRecord, clip } from '../http-support.js';
import { isTransportError } from '../failure-policy.js';

/*
 * What the AWS SDK throws for InvokeModel, in imagegate's terms. The SDK names a service error after the
 * `x-amzn-errortype` header (its `loadRestJsonErrorCode`, @smithy/core protocols/json/parseJsonBody.js, which keeps
 * what precedes the first `:`) and gives it the answer's status in `$metadata.httpStatusCode` and the answer in the
 * hidden `$response`; the statuses are those of the client's schemas (@aws-sdk/client-bedrock-runtime
 * dist-es/schemas/schemas_0.js: AccessDenied 403, Validation 400, Throttling 429, ModelNotReady 429, ModelTimeout
 * 408, ModelError 424, ResourceNotFound 404, ServiceQuotaExceeded 400, ServiceUnavailable 503, InternalServer 500)
 * and of the InvokeModel API reference (docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_InvokeModel.html).
 * Transport failures are Node's (the default handler on Node is NodeHttp2Handler: a refused connection is
 * ERR_HTTP2_STREAM_CANCEL caused by ECONNREFUSED) or fetch's (on Workers), which failure-policy.ts reads itself.
 */

const PROVIDER = 'Amazon Bedrock';

/** Connection errors before a byte left: as failure-policy.ts's NEVER_SENT, for Node's own errors rather than fetch's. */
const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);

/** The errors AWS answers for credentials it does not accept (not modelled by the client: known by name only). */
const CREDENTIALS_REFUSED = new Set([
  'UnrecognizedClientException',
  'InvalidSignatureException',
  'IncompleteSignatureException',
  'MissingAuthenticationTokenException',
  'ExpiredTokenException',
]);

export interface CallContext {
  model: string;
  region: string;
}

interface ServiceError {
  name: string;
  message: string;
  status: number;
  retryAfter: string | null;
}

/** fetch's own failures (on Workers), left to failure-policy.ts; not a type guard, which would narrow Error away. */
const isFetchFailure = (error: unknown): boolean => isTransportError(error);

const stringProp = (value: unknown, key: string): string | undefined => (isRecord(value) && typeof value[key] === 'string' ? value[key] : undefined);

/** An error the service answered (it has a status), as opposed to one of the transport or of the SDK itself. */
function serviceError(error: unknown): ServiceError | undefined {
  if (!(error instanceof Error) || !('$metadata' in error) || !isRecord(error.$metadata)) return undefined;
  const status = error.$metadata.httpStatusCode;
  if (typeof status !== 'number') return undefined;
  // `$response` is a non-enumerable property the SDK's deserializer adds; its header names are lower case.
  const response: unknown = '$response' in error ? error.$response : undefined;
  const headers = isRecord(response) ? response.headers : undefined;
  return { name: error.name, message: error.message, status, retryAfter: stringProp(headers, 'retry-after') ?? null };
}

/** A Node system error's code, on the error or on its cause (NodeHttp2Handler wraps the socket's error). */
function codesOf(error: unknown): string[] {
  const codes: string[] = [];
  for (let at: unknown = error, depth = 0; isRecord(at) && depth < 3; at = at.cause, depth += 1) {
    const code = stringProp(at, 'code');
    if (code !== undefined) codes.push(code);
  }
  return codes;
}

const detailOf = ({ name, message }: ServiceError): string =>
  clip(['Unknown', 'BedrockRuntimeServiceException', 'Error'].includes(name) ? message : `${name}: ${message}`);

function fromService(failure: ServiceError, { model, region }: CallContext): Error {
  const said = `${PROVIDER} answered ${failure.status} ${detailOf(failure)}`;
  switch (failure.name) {
    case 'ThrottlingException':
    case 'ModelNotReadyException':
    case 'ServiceUnavailableException':
    case 'InternalServerException':
      return new ProviderUnavailable(said, failure.status, parseRetryAfter(failure.retryAfter));
    case 'ModelErrorException':
      // The model ran and failed: a failed run (500), neither the caller's to fix nor safe to send again.
      return new Error(`${said} (not sent again)`);
    case 'ModelTimeoutException':
      // The model ran and ran out of time: it may be billed, so the request is never sent again.
      return new ProviderOutcomeUnknown(`${said}; the model may have run and been billed, so it is not sent again`, true);
    case 'AccessDeniedException':
      return new ProviderAccountProblem(
        `${said} (enable access to ${model} in the Amazon Bedrock console, Model access, for region ${region}, and let this AWS identity call bedrock:InvokeModel on it)`,
        failure.status,
      );
    case 'ResourceNotFoundException':
      return new ProviderAccountProblem(
        `${said} (check that ${model} is offered in ${region} and that its access is enabled in the Amazon Bedrock console for that region)`,
        failure.status,
      );
    case 'ServiceQuotaExceededException':
      return new ProviderAccountProblem(
        `${said} (the account's Bedrock quota for ${model} in ${region} is used up: raise it in Service Quotas)`,
        failure.status,
      );
    case 'ValidationException':
      // Nova's "This request has been blocked by our content filters"; Bedrock's guardrails word theirs alike.
      if (/content filter|blocked by/i.test(failure.message))
        return new ProviderRefusal(`${PROVIDER}'s content filters blocked the request: ${clip(failure.message)}`);
      // A model id the region does not serve: retired (Legacy, end of life), misspelt, or callable only through an inference profile.
      if (/model identifier is invalid|inference profile|on-demand throughput|end of its life|legacy/i.test(failure.message)) {
        return new ProviderAccountProblem(
          `${said} (${model} cannot be called in ${region}: check the model id, its lifecycle, and whether it needs an inference profile)`,
          failure.status,
        );
      }
      return new ProviderRefusal(said);
  }
  if (CREDENTIALS_REFUSED.has(failure.name)) {
    return new ProviderAccountProblem(`${said} (check the AWS credentials: key id, secret and session token, and the machine's clock)`, failure.status);
  }
  // Errors the client does not model (a proxy's, a gateway's): classified by their status.
  return httpFailure(PROVIDER, failure.status, detailOf(failure), failure.retryAfter);
}

/** The port's error for what InvokeModel threw; errors the resilience layer reads itself are passed on unchanged. */
export function bedrockFailure(error: unknown, context: CallContext): unknown {
  if (!(error instanceof Error)) return error;
  // The caller's or the deadline's abort: the resilience layer knows which, and whether the request was in flight.
  if (error.name === 'AbortError') return error;
  const failure = serviceError(error);
  if (failure !== undefined) return fromService(failure, context);
  if (error.name === 'CredentialsProviderError' || /could not load credentials|credential is missing/i.test(error.message)) {
    return new ProviderAccountProblem(
      `${PROVIDER} found no AWS credentials (${clip(error.message)}): set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or give the process a profile or role the AWS SDK finds`,
    );
  }
  if (isFetchFailure(error)) return error;
  const codes = codesOf(error);
  if (codes.some((code) => NEVER_SENT.has(code))) {
    return new ProviderUnavailable(`${PROVIDER} could not be reached (${codes.join(' ← ')}); nothing was sent`, 503);
  }
  // The connection broke, or the handler gave up, after the request may have left: never sent again.
  if (codes.length > 0 || error.name === 'TimeoutError' || /http2|socket|stream/i.test(error.message)) {
    const timedOut = /timed out/i.test(error.message);
    return new ProviderOutcomeUnknown(`${PROVIDER} lost the answer after the request was sent (${clip(error.message)}); not sent again`, timedOut);
  }
  return error;
}
