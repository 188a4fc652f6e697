import { api } from './client.js';

/**
 * Read by the web typecheck only (nothing imports it, so it is not in the build): calls the API does not have are type
 * errors. Each `@ts-expect-error` fails the typecheck in turn if its call ever compiles, e.g. should the client lose
 * its path types.
 */
export function typedPathsCheck(): void {
  // @ts-expect-error: a path the API does not have
  void api.GET('/api/no-such-path');
  // @ts-expect-error: a path the API has, with a method it does not answer
  void api.DELETE('/api/generate');
  // @ts-expect-error: a query parameter the path does not take
  void api.GET('/api/images', { params: { query: { no_such_parameter: '1' } } });
  // @ts-expect-error: a query parameter of the wrong type
  void api.GET('/api/images', { params: { query: { limit: 'ten' } } });
  // @ts-expect-error: the path's parameter left out
  void api.GET('/api/images/{id}', { params: { path: {} } });
  // @ts-expect-error: a body without the field the API requires
  void api.POST('/api/collections', { body: { description: 'no name' } });
}
