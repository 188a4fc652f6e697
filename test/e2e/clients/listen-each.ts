import { afterEach, beforeEach } from 'vitest';
import { createHarness, type Harness, type HarnessOptions } from '../../../src/test-support/harness.js';
import { harnessWithStandIn } from '../../../src/test-support/stand-in-harness.js';
import type { StandIn } from '../../../src/test-support/stand-in-provider.js';
import { listen, type Listening } from './listen.js';

export interface Live {
  readonly h: Harness;
  readonly server: Listening;
}

/**
 * A fresh harness on a real socket for each test of the calling file or describe block, both closed after it: the
 * set-up of every test of a real client (the OpenAI SDK, an MCP client) here. Read `h` and `server` inside tests.
 */
export function listenEach(options: HarnessOptions = {}): Live {
  const now = eachTest(async () => ({ h: await createHarness(options) }));
  return {
    get h() {
      return now().h;
    },
    get server() {
      return now().server;
    },
  };
}

/** The same, with Replicate a counting stand-in (see harnessWithStandIn): for the tests that no paid call is made. */
export function listenEachWithStandIn(options: HarnessOptions = {}): Live & { readonly standIn: StandIn } {
  const now = eachTest(() => harnessWithStandIn(options));
  return {
    get h() {
      return now().h;
    },
    get server() {
      return now().server;
    },
    get standIn() {
      return now().standIn;
    },
  };
}

function eachTest<T extends { h: Harness }>(make: () => Promise<T>): () => T & { server: Listening } {
  let current: (T & { server: Listening }) | undefined;
  beforeEach(async () => {
    const made = await make();
    current = { ...made, server: await listen(made.h) };
  });
  afterEach(async () => {
    const done = current;
    current = undefined;
    await done?.server.close();
    await done?.h.close();
  });
  return () => {
    if (current === undefined) throw new Error('the harness is there only while a test runs');
    return current;
  };
}
