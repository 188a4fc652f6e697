import { BEDROCK_FAKE_REGION, startBedrockFake } from './bedrock.fake.js';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { bedrockModels } from './bedrock-models.js';
import { createBedrockProvider } from './bedrock-provider.js';
import { parametersFrom } from '../../../providers.js';
import type { ProviderSubject } from '../../../test-support/provider-subject.js';

/** This provider in the shared suite (test/contracts/providers), against its loopback fake. */
export const subject: ProviderSubject = {
  name: 'Amazon Bedrock',
  providerId: 'bedrock',
  modelId: 'bedrock/stability.stable-image-core-v1:1',
  startFake: startBedrockFake,
  // The fault proxy speaks HTTP/1.1, and the SDK's default handler on Node HTTP/2: NodeHttpHandler talks to it
  // (bedrock.test.ts runs the default handler against the fake's HTTP/2 side).
  create: (baseUrl) =>
    createBedrockProvider(
      {
        region: BEDROCK_FAKE_REGION,
        endpoint: baseUrl,
        credentials: { accessKeyId: 'AKIDFAKEBEDROCK', secretAccessKey: 'fake-secret' },
        requestHandler: new NodeHttpHandler(),
      },
      parametersFrom(bedrockModels),
    ),
  costCases: [
    // Per image, whatever the size: Core $0.04, Ultra $0.14, SD 3.5 Large $0.08.
    { request: { model: 'bedrock/stability.stable-image-core-v1:1', width: 1920, height: 1080 }, cost: 0.04 },
    { request: { model: 'bedrock/stability.stable-image-ultra-v1:1' }, cost: 0.14 },
    { request: { model: 'bedrock/stability.sd3-5-large-v1:0', width: 512, height: 512 }, cost: 0.08 },
  ],
};
