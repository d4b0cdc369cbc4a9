/**
 * Work that outlives its request — a Game Master reply keeps generating after its player closed
 * the tab — registers here, so a graceful shutdown can let it finish before the database closes.
 */
interface InFlight {
  done: Promise<unknown>;
  /** Asks the work to wrap up now (it still settles its own bookkeeping). */
  stop: () => void;
}

const running = new Set<InFlight>();

export function trackInFlight(done: Promise<unknown>, stop: () => void) {
  const entry: InFlight = { done, stop };
  running.add(entry);
  void done.finally(() => running.delete(entry)).catch(() => {});
}

export function inFlightCount() {
  return running.size;
}

/** Waits up to `graceMs` for running work, then stops what remains and waits for it to settle. */
export async function settleInFlight(graceMs: number) {
  if (running.size === 0) return;
  const all = () => Promise.allSettled([...running].map((entry) => entry.done));
  let timer: NodeJS.Timeout | undefined;
  const timedOut = await Promise.race([
    all().then(() => false),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(true), graceMs);
    }),
  ]);
  clearTimeout(timer);
  if (!timedOut) return;
  for (const entry of running) entry.stop();
  await all();
}
