import { createServer, type IncomingMessage } from 'node:http';
import { listenOnLoopback } from './loopback-listen.js';
import type { ImageProvider, ProviderRequest } from '../ports/image-provider.js';
import { encodeBridge, decodeBridge, errorToBridge } from './provider-bridge-codec.js';

export interface ProviderBridge {
  /** `http://127.0.0.1:<port>`: POST /<provider id>/generate. */
  url: string;
  close(): Promise<void>;
}

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
}

/**
 * A test's providers, served on loopback for the service in wrangler dev to call: each call runs the test's own
 * object here (a stand-in, a gate, a counter), as the Node harness runs it in process. A call the service gives up
 * on (its fetch aborted) aborts the provider's signal.
 */
export async function serveProviders(providers: Readonly<Record<string, ImageProvider>>): Promise<ProviderBridge> {
  const server = createServer((request, response) => {
    const id = decodeURIComponent(request.url?.match(/^\/([^/]+)\/generate$/)?.[1] ?? '');
    const provider = providers[id];
    if (provider === undefined || request.method !== 'POST') {
      response.writeHead(404).end();
      return;
    }
    const controller = new AbortController();
    response.on('close', () => {
      if (!response.writableFinished) controller.abort(new Error('the service stopped waiting for this call'));
    });
    void bodyOf(request)
      .then((text) => provider.generate(decodeBridge<ProviderRequest>(text), { signal: controller.signal }))
      .then(
        (image) => ({ image }),
        (error: unknown) => ({ error: errorToBridge(error) }),
      )
      .then((answer) => response.writeHead(200, { 'Content-Type': 'application/json' }).end(encodeBridge(answer)));
  });
  return listenOnLoopback(server);
}
