/**
 * `load` run at the first call and its promise shared by every later one; a failure is not kept, so the call after
 * it runs `load` again (a database that was away, a module that did not load).
 */
export function sharedUntilFailure<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => {
    if (pending) return pending;
    const started = load();
    pending = started;
    started.catch(() => {
      if (pending === started) pending = undefined;
    });
    return started;
  };
}
