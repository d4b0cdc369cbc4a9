/**
 * Reads a value with the guarantee that the read started after the caller asked, while sharing
 * reads between concurrent callers: whoever arrives during a read waits for the next one.
 */
export class FreshRead<T> {
  readonly #load: () => Promise<T>;
  #running: Promise<T> | undefined;
  #queued: Promise<T> | undefined;

  constructor(load: () => Promise<T>) {
    this.#load = load;
  }

  read(): Promise<T> {
    if (!this.#running) return this.#start();
    this.#queued ??= this.#running.then(
      () => this.#startQueued(),
      () => this.#startQueued(),
    );
    return this.#queued;
  }

  #startQueued() {
    this.#queued = undefined;
    return this.#start();
  }

  #start() {
    const run = this.#load().finally(() => {
      if (this.#running === run) this.#running = undefined;
    });
    this.#running = run;
    return run;
  }
}
