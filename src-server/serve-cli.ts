/**
 * `gatehouse serve`: `./cli.ts` runs this for that command (the other commands are in `./cli/main.ts`). A script
 * of its own, without top-level await, so that it can be bundled as one CommonJS file whose compiled code V8 keeps
 * between starts (`./serve-code-cache.ts`).
 */
import { heapProfileOf, keepHeapSmall } from './core/threads/heap-sizing.js';

/**
 * V8's heap sized for a small server (core/threads/heap-sizing.ts says how and why): loading the server's
 * modules alone made V8 grow the young generation to 2 × 16 MiB for good, a third of `gatehouse serve`'s resident
 * memory. Set before the server's modules load (imported below), for `serve` only: the offline commands (an import
 * of a million entries) keep V8's defaults, and so does Electron's main process; `GATEHOUSE_HEAP=throughput` keeps
 * them for `serve` too.
 */
async function serve(): Promise<void> {
  const profile = heapProfileOf(process.env);
  if (profile === undefined) {
    process.stderr.write(
      `GATEHOUSE_HEAP must be small or throughput, not ${JSON.stringify(process.env.GATEHOUSE_HEAP)}.\n`,
    );
    process.exit(2);
  }
  if (profile === 'small') keepHeapSmall();

  const { exitWith, runCommand } = await import('./cli/run-command.js');
  exitWith(
    runCommand(
      'serve',
      async () => {
        const { serveCommand, SERVE_HELP } = await import('./cli/serve-command.js');
        return { run: serveCommand, help: SERVE_HELP };
      },
      process.argv.slice(3),
    ),
  );
}

void serve();
