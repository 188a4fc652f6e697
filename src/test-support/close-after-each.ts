import { afterEach } from 'vitest';

interface Closable {
  close(): Promise<void>;
}

/**
 * Closes, after each test of the calling file, what that test opened (a harness, a webhook receiver), last opened
 * first, whether the test passed or not; then forgets it, so the next test starts with nothing open. Returns the
 * function that registers a thing and hands it back: `const h = closing(await createHarness())`.
 */
export function closeAfterEach(): <T extends Closable>(thing: T) => T {
  const open: Closable[] = [];
  afterEach(async () => {
    for (let thing = open.pop(); thing !== undefined; thing = open.pop()) await thing.close();
  });
  return (thing) => {
    open.push(thing);
    return thing;
  };
}
