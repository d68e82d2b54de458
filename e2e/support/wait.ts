/**
 * Polls `check` until it returns something other than undefined or false, and returns that. A
 * condition, not a fixed sleep: it goes on as soon as the condition holds, and fails after
 * `within` ms with `what` (the message is built when it fails, e.g. with the server's output).
 * An error thrown by `check` (a process that exited) ends the wait at once.
 */
export async function until<T>(
  check: () => Promise<T | undefined | false> | T | undefined | false,
  what: () => string,
  within = 60_000,
  every = 100,
): Promise<T> {
  const deadline = Date.now() + within;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`${what()} (waited ${within / 1000} s)`);
    await new Promise((r) => setTimeout(r, every));
  }
}

/** Whether `url` answers 200 now (false while nothing listens there yet). */
export async function answersOk(url: string): Promise<boolean> {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
}
