import { skipWithout } from '../../src/test-support/services.js';

/**
 * The scale-out project runs on PostgreSQL and Redis. Under CI=true a missing server fails the run;
 * elsewhere the project stops with the reason printed (the embedded project still runs).
 */
export default async function requireScaleOutServices(): Promise<void> {
  if (await skipWithout('postgres', 'redis')) {
    throw new Error('the scale-out project needs PostgreSQL and Redis; start them (commands in .ci/run) or run `npx vitest run --project embedded`');
  }
}
