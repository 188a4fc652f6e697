import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LoopbackListener {
  /** `http://127.0.0.1:<port>`, the port the system picked. */
  url: string;
  /** Drops open connections (keep-alive ones included) and resolves once the server has stopped. */
  close(): Promise<void>;
}

/** Listens on a free loopback port: the test servers' (provider bridge, edge proxy, OTLP collector) one way of starting. */
export async function listenOnLoopback(server: Server): Promise<LoopbackListener> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
