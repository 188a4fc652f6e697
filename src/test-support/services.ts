import net from 'node:net';

/**
 * The real servers some tests need (PostgreSQL, Redis). CI starts them (`.ci/run`); a test whose server is
 * missing fails under CI=true, and outside CI is skipped with the reason printed.
 */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export type ServiceName = 'postgres' | 'redis';

const URLS: Record<ServiceName, string> = { postgres: TEST_DATABASE_URL, redis: TEST_REDIS_URL };
const DEFAULT_PORTS: Record<ServiceName, number> = { postgres: 5432, redis: 6379 };
const reachable = new Map<ServiceName, Promise<boolean>>();

/** Whether something accepts TCP connections at the URL's host and port (the fallback port when it names none), within 2 s. */
export function canConnect(url: string, fallbackPort: number): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname || '127.0.0.1', port: Number(port || fallbackPort) });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(2000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** Whether the server answers on its port; checked once per test process. */
export function serviceAvailable(name: ServiceName): Promise<boolean> {
  let check = reachable.get(name);
  if (check === undefined) {
    check = canConnect(URLS[name], DEFAULT_PORTS[name]);
    reachable.set(name, check);
  }
  return check;
}

/**
 * True when the tests that need `names` should be skipped: the servers are missing and this is not CI.
 * Under CI=true a missing server is an error, so the suite fails instead of passing with nothing tested.
 */
export async function skipWithout(...names: ServiceName[]): Promise<boolean> {
  const missing: ServiceName[] = [];
  for (const name of names) if (!(await serviceAvailable(name))) missing.push(name);
  if (missing.length === 0) return false;
  const where = missing.map((name) => `${name} at ${URLS[name]}`).join(' and ');
  if (process.env.CI === 'true') throw new Error(`${where} is not reachable; CI needs it (.ci/run starts it)`);
  console.warn(`skipping: ${where} is not reachable (start it, or run .ci/run)`);
  return true;
}
