import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FaultProxy {
  /** Origin to use instead of the fake's (paths are forwarded unchanged). */
  url: string;
  /** Requests that reached the proxy, faulted or not. */
  count: () => number;
  /** Every request that reached the proxy, in order. */
  sent: () => { method: string; path: string }[];
  /** The next `times` requests answer `status` with a JSON error body (and optional headers) instead of reaching the fake. */
  fail(times: number, status: number, headers?: Record<string, string>): void;
  /** The next `times` requests that `match` (method and path) answer `status`; others pass through. */
  failWhen(match: (method: string, path: string) => boolean, times: number, status: number): void;
  /** The next `times` requests never get an answer. */
  stall(times: number): void;
  /**
   * The next `times` requests that `match` reach the fake, which acts on them and answers, but the answer never
   * comes back: the client's connection is destroyed instead (a reset after the request was sent).
   */
  dropAnswer(times: number, match?: (method: string, path: string) => boolean): void;
  close(): Promise<void>;
}

/**
 * A loopback proxy in front of a provider's fake that injects failures, so one resilience suite can run
 * against every adapter without knowing its wire format.
 */
export async function startFaultProxy(target: string): Promise<FaultProxy> {
  type Match = (method: string, path: string) => boolean;
  const faults: ({ kind: 'fail'; status: number; headers: Record<string, string>; match?: Match } | { kind: 'stall' | 'drop'; match?: Match })[] = [];
  const stalled: http.ServerResponse[] = [];
  let requests = 0;
  const sent: { method: string; path: string }[] = [];
  const targetUrl = new URL(target);
  const server = http.createServer((req, res) => {
    requests += 1;
    sent.push({ method: req.method ?? '', path: req.url ?? '' });
    const index = faults.findIndex((candidate) => candidate.match === undefined || candidate.match(req.method ?? '', req.url ?? ''));
    const fault = index < 0 ? undefined : faults.splice(index, 1)[0];
    if (fault?.kind === 'stall') {
      stalled.push(res);
      req.resume();
      return;
    }
    if (fault?.kind === 'fail') {
      req.resume();
      res.writeHead(fault.status, { 'Content-Type': 'application/json', ...fault.headers });
      res.end(
        JSON.stringify({
          error: { message: `injected ${fault.status}` },
          detail: `injected ${fault.status}`,
          errors: [{ code: fault.status, message: `injected ${fault.status}` }],
          success: false,
        }),
      );
      return;
    }
    const upstream = http.request(
      // The Host the adapter called is kept, so a fake that names URLs (status, output files) names them on the proxy
      // and the follow-up requests can be faulted too.
      { host: targetUrl.hostname, port: targetUrl.port, method: req.method, path: req.url ?? '/', headers: req.headers },
      (answer) => {
        if (fault?.kind === 'drop') {
          // Only once the fake has answered in full, so whatever it did for this request is done.
          answer.resume();
          answer.on('end', () => req.socket.destroy());
          return;
        }
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  // Websockets are not proxied: an adapter that follows one must cope without it (ComfyUI falls back to polling).
  server.on('upgrade', (_request, socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    count: () => requests,
    sent: () => [...sent],
    fail(times, status, headers = {}) {
      for (let i = 0; i < times; i += 1) faults.push({ kind: 'fail', status, headers });
    },
    failWhen(match, times, status) {
      for (let i = 0; i < times; i += 1) faults.push({ kind: 'fail', status, headers: {}, match });
    },
    stall(times) {
      for (let i = 0; i < times; i += 1) faults.push({ kind: 'stall' });
    },
    dropAnswer(times, match) {
      for (let i = 0; i < times; i += 1) faults.push({ kind: 'drop', match });
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of stalled) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
