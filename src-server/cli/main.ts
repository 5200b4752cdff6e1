/** The `gatehouse` commands but `serve` (`../serve-cli.ts`): `../cli.ts` loads this for any other command. */
import { packageInfo } from '../core/data-dir/package-root.js';
import { exitWith, runCommand, type Command } from './run-command.js';

const HELP = `Gatehouse — console for passthrough APIs and the audit trail

Usage: gatehouse <command> [options]

Commands:
  serve     Start the server (Control Panel + gateway)
  token     Print a bearer token from the built-in identity provider
  link      Print a fresh one-time console sign-in link for the running server
  config    Read or write settings (appsettings.json)
  audit     Import, export, sync or prune the audit trail offline
  source    Add, update, list or remove the tenants an audit trail is synced from
  api       Import an API definition (OpenAPI document) offline
  backup    Back up the embedded database, or list the backups and the restorable window
  restore   Rebuild a data dir as it stood at a moment of the last 35 days
  echo      Start a target that echoes each request back, to try passthroughs locally

Every command takes --data-dir DIR (default: the per-user app-data folder, or $GATEHOUSE_DATA_DIR).
Run "gatehouse <command> --help" for its options.`;

/**
 * Each command's module is loaded when that command runs: loading every command's (the whole server's for
 * `serve`) cost ~0.5 s of CPU on each run of any command (bench:audit's import of 100,000 entries spent 0.6 s
 * of its 4 s there).
 */
const COMMANDS: Record<string, () => Promise<Command>> = {
  token: async () => {
    const { tokenCommand, TOKEN_HELP } = await import('./token-command.js');
    return { run: tokenCommand, help: TOKEN_HELP };
  },
  link: async () => {
    const { linkCommand, LINK_HELP } = await import('./link-command.js');
    return { run: linkCommand, help: LINK_HELP };
  },
  config: async () => {
    const { configCommand, CONFIG_HELP } = await import('./config-command.js');
    return { run: configCommand, help: CONFIG_HELP };
  },
  audit: async () => {
    const { auditCommand, AUDIT_HELP } = await import('./audit-command.js');
    return { run: auditCommand, help: AUDIT_HELP };
  },
  source: async () => {
    const { sourceCommand, SOURCE_HELP } = await import('./source-command.js');
    return { run: (argv, out) => sourceCommand(argv, out), help: SOURCE_HELP };
  },
  api: async () => {
    const { apiCommand, API_HELP } = await import('./api-command.js');
    return { run: apiCommand, help: API_HELP };
  },
  backup: async () => {
    const { backupCommand, BACKUP_HELP } = await import('./backup-command.js');
    return { run: backupCommand, help: BACKUP_HELP };
  },
  restore: async () => {
    const { restoreCommand, RESTORE_HELP } = await import('./backup-command.js');
    return { run: restoreCommand, help: RESTORE_HELP };
  },
  echo: async () => {
    const { echoCommand, ECHO_HELP } = await import('./echo-command.js');
    return { run: echoCommand, help: ECHO_HELP };
  },
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
  const load = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!load) {
    process.stderr.write(`Unknown command '${name}'.\n\n${HELP}\n`);
    return 2;
  }
  return runCommand(name, load, rest);
}

exitWith(main(process.argv.slice(2)));
