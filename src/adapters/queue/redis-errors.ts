import { markIfTransient, type DriverFailures } from '../support/transient-errors.js';

/** ioredis says a lost connection, or a command given up on, in words rather than codes. */
const REDIS: DriverFailures = { messages: /connection is closed|max retries per request|stream isn't writeable/i };

/** An ioredis error (through BullMQ) as the port states it: marked as a TransientFailure when Redis, not the command, failed. */
export const translateRedisError = (error: unknown): unknown => markIfTransient(error, REDIS);
