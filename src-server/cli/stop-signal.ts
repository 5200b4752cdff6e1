/**
 * Resolves once `stop` has finished after the first SIGINT or SIGTERM. `stop` is told which signal came; a later
 * signal aborts `hurry` (cutting a readiness grace short) and is otherwise ignored.
 */
export function runUntilStopSignal(
  out: NodeJS.WritableStream,
  stop: (signal: NodeJS.Signals, hurry: AbortSignal) => Promise<void>,
): Promise<void> {
  return new Promise<void>((resolve) => {
    let stopping: AbortController | undefined;
    const onSignal = (signal: NodeJS.Signals) => {
      if (stopping) {
        stopping.abort();
        return;
      }
      stopping = new AbortController();
      out.write(`\n${signal}: stopping…\n`);
      stop(signal, stopping.signal)
        .then(() => out.write('Stopped.\n'))
        .catch((error: unknown) => {
          process.stderr.write(`Stopping failed: ${(error as Error).message}\n`);
          process.exitCode = 1;
        })
        .finally(() => {
          process.off('SIGINT', onSignal);
          process.off('SIGTERM', onSignal);
          resolve();
        });
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}
