import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { Harness } from '../../../src/test-support/harness.js';

export interface Listening {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  close(): Promise<void>;
}

/** The harness's app on a real socket (port 0: the system picks a free one), for clients that speak HTTP only. */
export async function listen(h: Harness): Promise<Listening> {
  return new Promise((resolve) => {
    const server = serve({ fetch: h.app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => {
      resolve({
        origin: `http://127.0.0.1:${info.port}`,
        close: () => new Promise<void>((done) => server.close(() => done())),
      });
    });
  });
}
