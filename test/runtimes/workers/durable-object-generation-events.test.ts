import { env } from 'cloudflare:workers';
import { createDurableObjectGenerationEvents, type GenerationEventHubs } from '../../../src/adapters/events/durable-object-generation-events.js';
import type { Logger } from '../../../src/ports/logger.js';
import { describeGenerationEventsContract } from '../../contracts/generation-events.contract.js';

/** The GenerationEvents contract against one Durable Object per generation, as workerd runs them locally. */
const hubs = env.GENERATION_EVENTS as GenerationEventHubs;
const quiet: Logger = { error: () => undefined, warn: () => undefined, info: () => undefined, debug: () => undefined };

describeGenerationEventsContract(
  'a Durable Object per generation, in workerd',
  async () => ({ events: createDurableObjectGenerationEvents(hubs, quiet), peer: async () => createDurableObjectGenerationEvents(hubs, quiet) }),
  { shared: true },
);
