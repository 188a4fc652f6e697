import { z } from 'zod';
import { defineSettings, optionalSetting, optionalUrlSetting } from '../provider-settings.js';
import { defineProvider, must } from '../provider-spec.js';
import { bedrockModels } from './bedrock-models.js';
import { createBedrockProvider } from './bedrock-provider.js';

/*
 * Amazon Bedrock runs on every runtime: the AWS SDK's browser build (fetch, Web Crypto) runs in workerd. Only Node's
 * build has the default credential chain (shared config and SSO, web identity, container and instance roles), so
 * the static keys are read here as well: on Workers they are the only way in (as secrets), on Node the chain's first
 * step would read them from the environment anyway. BEDROCK_REGION alone turns the provider on, never AWS_REGION:
 * hosts set that for everything (Lambda, ECS, the S3 store), and Bedrock's image models live in few regions.
 */
const region = optionalSetting.pipe(
  z
    .string()
    .regex(/^[a-z]{2}(-[a-z]+)+-\d+$/, 'must be an AWS region, e.g. us-west-2 (where Bedrock serves the Stability models)')
    .optional(),
);

export const bedrockProvider = defineProvider({
  id: 'bedrock',
  name: 'Amazon Bedrock',
  settings: defineSettings({
    shape: {
      BEDROCK_REGION: region,
      BEDROCK_ENDPOINT: optionalUrlSetting,
      AWS_ACCESS_KEY_ID: optionalSetting,
      AWS_SECRET_ACCESS_KEY: optionalSetting,
      AWS_SESSION_TOKEN: optionalSetting,
    },
    check(env, ctx) {
      if (env.BEDROCK_REGION !== undefined && (env.AWS_ACCESS_KEY_ID === undefined) !== (env.AWS_SECRET_ACCESS_KEY === undefined)) {
        ctx.addIssue({
          code: 'custom',
          path: ['AWS_SECRET_ACCESS_KEY'],
          message: "set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY together, or neither to let the AWS SDK's default chain find credentials",
        });
      }
    },
  }),
  requires: ['BEDROCK_REGION'],
  models: () => bedrockModels,
  create: (env, _fetch, parametersOf, shared) =>
    createBedrockProvider(
      {
        region: must(env.BEDROCK_REGION),
        endpoint: env.BEDROCK_ENDPOINT,
        credentials:
          env.AWS_ACCESS_KEY_ID === undefined || env.AWS_SECRET_ACCESS_KEY === undefined
            ? undefined
            : { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY, sessionToken: env.AWS_SESSION_TOKEN },
        masks: shared.cpu,
      },
      parametersOf,
    ),
  remote: true,
});
