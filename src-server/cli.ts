#!/usr/bin/env node
import { apiCommand, API_HELP } from './cli/api-command.js';
import { auditCommand, AUDIT_HELP } from './cli/audit-command.js';
import { backupCommand, BACKUP_HELP, restoreCommand, RESTORE_HELP } from './cli/backup-command.js';
import { configCommand, CONFIG_HELP } from './cli/config-command.js';
import { echoCommand, ECHO_HELP } from './cli/echo-command.js';
import { linkCommand, LINK_HELP } from './cli/link-command.js';
import { serveCommand, SERVE_HELP } from './cli/serve-command.js';
import { tokenCommand, TOKEN_HELP } from './cli/token-command.js';
import { CommandError, UsageError } from './cli/usage-error.js';
import { packageInfo } from './core/data-dir/package-root.js';
import { NewerConfigurationError } from './core/config-store/config-store.js';
import { ConversionError } from './core/legacy/convert-data-dir.js';
import { RestoreError } from './core/backup/restore.js';
import { DatabaseOpenError } from './core/storage/storage-errors.js';

const HELP = `Gatehouse — console for passthrough APIs and the audit trail

Usage: gatehouse <command> [options]

Commands:
  serve     Start the server (Control Panel + gateway)
  token     Print a bearer token from the built-in identity provider
  link      Print a fresh one-time console sign-in link for the running server
  config    Read or write settings (appsettings.json)
  audit     Import, export or prune the audit trail offline
  api       Import an API definition (OpenAPI document) offline
  backup    Back up the embedded database, or list the backups and the restorable window
  restore   Rebuild a data dir as it stood at a moment of the last 35 days
  echo      Start a target that echoes each request back, to try passthroughs locally

Every command takes --data-dir DIR (default: the per-user app-data folder, or $GATEHOUSE_DATA_DIR).
Run "gatehouse <command> --help" for its options.`;

const COMMANDS: Record<
  string,
  { run: (argv: string[], out: NodeJS.WritableStream) => Promise<void>; help: string }
> = {
  serve: { run: serveCommand, help: SERVE_HELP },
  token: { run: tokenCommand, help: TOKEN_HELP },
  link: { run: linkCommand, help: LINK_HELP },
  config: { run: configCommand, help: CONFIG_HELP },
  audit: { run: auditCommand, help: AUDIT_HELP },
  api: { run: apiCommand, help: API_HELP },
  backup: { run: backupCommand, help: BACKUP_HELP },
  restore: { run: restoreCommand, help: RESTORE_HELP },
  echo: { run: echoCommand, help: ECHO_HELP },
};

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    process.stdout.write(`${HELP}\n`);
    return name ? 0 : 2;
  }
  if (name === '--version' || name === '-v') {
    process.stdout.write(`${packageInfo().version}\n`);
    return 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    process.stderr.write(`Unknown command '${name}'.\n\n${HELP}\n`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(`${command.help}\n`);
    return 0;
  }
  try {
    await command.run(rest, process.stdout);
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
      return 1;
    }
    process.stderr.write(`gatehouse ${name} failed: ${(error as Error).stack ?? String(error)}\n`);
    return 1;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`${String(error)}\n`);
    process.exitCode = 1;
  },
);
