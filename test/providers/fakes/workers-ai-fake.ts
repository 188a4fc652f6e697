import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';

/** Workers AI's REST API on loopback, answering FLUX's JSON form with a base64 JPEG. */
export async function startWorkersAiFake(): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const jpeg = await sharp({ create: { width: 80, height: 48, channels: 3, background: 'teal' } }).jpeg().toBuffer();
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ result: { image: jpeg.toString('base64') }, success: true, errors: [], messages: [] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/client/v4`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
