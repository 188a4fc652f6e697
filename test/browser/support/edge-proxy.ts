import http from 'node:http';
import { listenOnLoopback } from '../../../src/test-support/loopback-listen.js';

export interface EdgeProxy {
  url: string;
  close(): Promise<void>;
}

/**
 * Stands in for the edge (Cloudflare) in front of an IP allow-list server: it forwards every request and
 * sets the client-address header itself, overwriting whatever the client sent, as a real edge does.
 */
export async function startEdgeProxy(target: string, header: string, clientAddress: string): Promise<EdgeProxy> {
  const targetUrl = new URL(target);
  const server = http.createServer((incoming, outgoing) => {
    const headers = { ...incoming.headers, host: targetUrl.host, [header.toLowerCase()]: clientAddress };
    const forward = http.request({ host: targetUrl.hostname, port: targetUrl.port, method: incoming.method, path: incoming.url, headers }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    forward.on('error', (error) => {
      outgoing.writeHead(502, { 'Content-Type': 'text/plain' });
      outgoing.end(`edge proxy: ${error.message}`);
    });
    incoming.pipe(forward);
  });
  return listenOnLoopback(server);
}
