import { defineSettings, optionalSetting, optionalUrlSetting } from '../provider-settings.js';
import { defineProvider, must } from '../provider-spec.js';
import { a1111Models } from './a1111-models.js';
import { createA1111Provider } from './a1111-provider.js';

export const a1111Provider = defineProvider({
  id: 'a1111',
  name: 'Automatic1111',
  settings: defineSettings({
    shape: { A1111_BASE_URL: optionalUrlSetting, A1111_MODELS: optionalSetting, A1111_USERNAME: optionalSetting, A1111_PASSWORD: optionalSetting },
    check(env, ctx) {
      if ((env.A1111_USERNAME === undefined) !== (env.A1111_PASSWORD === undefined)) {
        ctx.addIssue({
          code: 'custom',
          path: ['A1111_PASSWORD'],
          message: 'set A1111_USERNAME and A1111_PASSWORD together (the --api-auth user:password of your server), or neither',
        });
      }
    },
  }),
  requires: ['A1111_BASE_URL'],
  models: (env) => a1111Models(env.A1111_MODELS),
  create: (env, fetchImpl, parametersOf) =>
    createA1111Provider({ baseUrl: must(env.A1111_BASE_URL), username: env.A1111_USERNAME, password: env.A1111_PASSWORD, fetch: fetchImpl }, parametersOf),
  remote: true,
});
