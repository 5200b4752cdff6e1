/** Resolves once `stop` has finished after the first SIGINT or SIGTERM (later signals are ignored). */
export function runUntilStopSignal(out: NodeJS.WritableStream, stop: () => Promise<void>): Promise<void> {
  return new Promise<void>((resolve) => {
    let stopping = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (stopping) return;
      stopping = true;
      out.write(`\n${signal}: stopping…\n`);
      stop()
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
