import { userInfo } from 'node:os';
import { parseArgs } from 'node:util';
import { AuditSourceInputSchema } from '../core/contracts/audit-source-schemas.js';
import { HttpProblem } from '../core/http/problem.js';
import { dataDirOption, withOfflineTenant } from './offline-tenant.js';
import { CommandError, UsageError } from './usage-error.js';

export const SOURCE_HELP = `gatehouse source add NAME --base-url URL [--tenant T]
                      (--token-endpoint URL --client-id ID [--scope S] | --bearer) [--data-dir DIR]
gatehouse source list [--data-dir DIR]
gatehouse source remove NAME [--data-dir DIR]

The tenants whose audit trails "gatehouse audit sync" pulls from their GET /api/v1/audit-log.
add     The management API base URL and how to get a token: OAuth 2 client credentials against the tenant's
        identity provider, or (--bearer) a pasted bearer token. The client secret or the token is read from
        standard input (never from the command line), sealed at rest and never shown again. Entries go into
        the tenant named by --tenant (default: the source's name). Plain http only to a loopback host.
remove  The entries already synced stay in the tenant's trail.
The server for that data dir must be stopped (while it runs, use the console or the API).`;

async function readSecret(input: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of input) text += String(chunk);
  return text.replace(/\r?\n$/, '');
}

function usageOf(error: unknown): never {
  if (error instanceof HttpProblem && error.errors) {
    throw new UsageError(
      Object.entries(error.errors)
        .map(([name, messages]) => `${name}: ${messages.join(' ')}`)
        .join('\n'),
    );
  }
  if (error instanceof HttpProblem) throw new CommandError(error.detail ?? error.message, error);
  throw error;
}

export async function sourceCommand(
  argv: string[],
  out: NodeJS.WritableStream,
  input: NodeJS.ReadableStream = process.stdin,
): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      'data-dir': { type: 'string' },
      'base-url': { type: 'string' },
      tenant: { type: 'string' },
      'token-endpoint': { type: 'string' },
      'client-id': { type: 'string' },
      scope: { type: 'string' },
      bearer: { type: 'boolean' },
    },
    allowPositionals: true,
    strict: true,
  });
  const [action, name] = positionals;
  const dataDir = dataDirOption(values['data-dir']);
  const user = `cli:${userInfo().username}`;
  switch (action) {
    case 'add': {
      if (!name || !values['base-url']) throw new UsageError(SOURCE_HELP);
      if (!values.bearer && !(values['token-endpoint'] && values['client-id']))
        throw new UsageError('Give --token-endpoint and --client-id, or --bearer.\n\n' + SOURCE_HELP);
      const secret = await readSecret(input);
      const parsed = AuditSourceInputSchema.safeParse({
        name,
        baseUrl: values['base-url'],
        ...(values.tenant ? { tenant: values.tenant } : {}),
        auth: values.bearer
          ? { kind: 'bearer', token: secret }
          : {
              kind: 'client-credentials',
              tokenEndpoint: values['token-endpoint'],
              clientId: values['client-id'],
              clientSecret: secret,
              ...(values.scope ? { scope: values.scope } : {}),
            },
      });
      if (!parsed.success) {
        throw new UsageError(
          parsed.error.issues
            .map((issue) => {
              const path = issue.path.join('.');
              const what =
                /secret|token$/.test(path) && path !== 'auth.tokenEndpoint'
                  ? `${path} (standard input)`
                  : path;
              return `${what}: ${issue.message}`;
            })
            .join('\n'),
        );
      }
      await withOfflineTenant(dataDir, 'source add', async (tenant) => {
        const created = await tenant.auditSources.create(parsed.data).catch(usageOf);
        await tenant.recorder.recordOfflineAction(
          'AuditSources.Create',
          user,
          { name: created.name, tenant: created.tenant, baseUrl: created.baseUrl, auth: created.auth },
          [{ type: 'AuditSource', id: created.name, name: created.name }],
        );
        out.write(
          `Added source ${created.name} (tenant ${created.tenant}, ${created.auth.kind}): ${created.baseUrl}\n`,
        );
      });
      return;
    }
    case 'list':
      await withOfflineTenant(dataDir, 'source list', async (tenant) => {
        const sources = await tenant.auditSources.list();
        if (sources.length === 0) out.write('No sources. Add one with "gatehouse source add".\n');
        for (const source of sources) {
          const how =
            source.auth.kind === 'bearer'
              ? 'bearer token ********'
              : `client ${source.auth.clientId} at ${source.auth.tokenEndpoint}, secret ********`;
          const last = source.lastSync
            ? `; last sync ${source.lastSync.status} ${source.lastSync.startedAt} (${source.lastSync.added} added)`
            : '';
          out.write(
            `${source.name}\ttenant ${source.tenant}\t${source.baseUrl}\t${how}${source.syncedUntil ? `; synced until ${source.syncedUntil}` : ''}${source.interrupted ? '; interrupted, resumes' : ''}${last}\n`,
          );
        }
      });
      return;
    case 'remove': {
      if (!name || positionals.length !== 2) throw new UsageError(SOURCE_HELP);
      await withOfflineTenant(dataDir, 'source remove', async (tenant) => {
        const removed = await tenant.auditSources.remove(name.toLowerCase());
        if (!removed) throw new CommandError(`No source is named ${name}.`);
        await tenant.recorder.recordOfflineAction('AuditSources.Delete', user, { name: removed.name }, [
          { type: 'AuditSource', id: removed.name, name: removed.name },
        ]);
        out.write(`Removed source ${removed.name}; the entries synced into tenant ${removed.tenant} stay.\n`);
      });
      return;
    }
    default:
      throw new UsageError(SOURCE_HELP);
  }
}
