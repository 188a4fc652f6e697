import { sendJson, startLoopbackServer, type LoopbackServer } from '../loopback-server.js';
import { sampleImages, type FakeOptions } from './sample-images.js';

/** Workers AI's REST API on loopback, answering FLUX's JSON form with a base64 JPEG (what FLUX sends) or the format given. */
export async function startWorkersAiFake(options: FakeOptions = {}): Promise<{ baseUrl: string; server: LoopbackServer; close(): Promise<void> }> {
  const images = await sampleImages();
  const image = images[options.answer ?? 'jpeg'].toString('base64');
  const server = await startLoopbackServer((request, response) => {
    // The account's models (GET .../ai/models/search), for `imagegate models --check`.
    if (request.method === 'GET' && /^\/client\/v4\/accounts\/[^/]+\/ai\/models\/search/.test(request.path)) {
      return sendJson(response, 200, { result: [{ name: '@cf/black-forest-labs/flux-2-dev', task: { name: 'Text-to-Image' } }], success: true, errors: [], messages: [] });
    }
    if (request.method !== 'POST' || !request.path.startsWith('/client/v4/accounts/')) {
      return sendJson(response, 404, { success: false, errors: [{ code: 7000, message: 'No route for that URI' }] });
    }
    sendJson(response, 200, { result: { image }, success: true, errors: [], messages: [] });
  });
  return { baseUrl: `${server.origin}/client/v4`, server, close: () => server.close() };
}
