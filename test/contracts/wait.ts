/** Polls `check` until it holds; fails the test after `ms`. */
export const until = async (check: () => boolean, ms = 10_000): Promise<void> => {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not reached');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

/** A job handler that never returns, like one whose process is about to die. */
export const never = (): Promise<void> => new Promise<void>(() => undefined);
