/** Runs async tasks one at a time in call order, so the journal order equals the apply order. */
export class WriteQueue {
  #tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(task);
    // A failed task must not block the ones queued after it.
    this.#tail = result.catch(() => undefined);
    return result;
  }
}
