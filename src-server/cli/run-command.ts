/** Runs one `gatehouse` command and turns what it throws into an exit code and a message on stderr. */
import { CommandError, UsageError } from './usage-error.js';
import { NewerConfigurationError } from '../core/config-store/config-store.js';
import { ConversionError } from '../core/legacy/convert-data-dir.js';
import { RestoreError } from '../core/backup/restore.js';
import { DatabaseOpenError } from '../core/storage/storage-errors.js';

export interface Command {
  run: (argv: string[], out: NodeJS.WritableStream) => Promise<void>;
  help: string;
}

/** `load` runs inside: a command module that fails to load is reported like the command failing. */
export async function runCommand(
  name: string,
  load: () => Promise<Command>,
  argv: string[],
): Promise<number> {
  try {
    const command = await load();
    if (argv.includes('--help') || argv.includes('-h')) {
      process.stdout.write(`${command.help}\n`);
      return 0;
    }
    await command.run(argv, process.stdout);
    return 0;
  } catch (error) {
    if (error instanceof UsageError || (error as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`${(error as Error).message}\n`);
      return 2;
    }
    // Errors an operator must act on (an unreachable or damaged database, a newer one) need their message only.
    if (
      error instanceof CommandError ||
      error instanceof DatabaseOpenError ||
      error instanceof ConversionError ||
      error instanceof RestoreError ||
      error instanceof NewerConfigurationError
    ) {
      process.stderr.write(`${error.message}\n`);
      return error instanceof CommandError ? error.exitCode : 1;
    }
    // An error of the operating system (a host name that doesn't resolve, a data dir that is a file) says what
    // is wrong in its message; its stack would only point into Node.
    const detail = isSystemError(error) ? error.message : ((error as Error).stack ?? String(error));
    process.stderr.write(`gatehouse ${name} failed: ${detail}\n`);
    return 1;
  }
}

function isSystemError(error: unknown): error is NodeJS.ErrnoException {
  const { code, syscall } = (error ?? {}) as NodeJS.ErrnoException;
  return error instanceof Error && typeof syscall === 'string' && typeof code === 'string';
}

/** Sets the process's exit code from the run; what escapes it (it should not) is printed. */
export function exitWith(run: Promise<number>): void {
  run.then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`${String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
