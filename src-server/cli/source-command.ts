import { userInfo } from 'node:os';
import { parseArgs } from 'node:util';
import {
  AuditSourceInputSchema,
  AuditSourcePatchSchema,
  type AuditSourcePatch,
} from '../core/contracts/audit-source-schemas.js';
import type { ZodError } from 'zod';
import { HttpProblem } from '../core/http/problem.js';
import { dataDirOption, withOfflineTenant } from './offline-tenant.js';
import { CommandError, UsageError } from './usage-error.js';

export const SOURCE_HELP = `gatehouse source add NAME --base-url URL [--tenant T]
                      (--token-endpoint URL --client-id ID [--scope S] | --bearer) [--data-dir DIR]
gatehouse source update NAME [--base-url URL] [--tenant T] [--token-endpoint URL] [--client-id ID] [--scope S]
                         [--bearer] [--new-secret] [--data-dir DIR]
gatehouse source list [--data-dir DIR]
gatehouse source remove NAME [--data-dir DIR]

The tenants whose audit trails "gatehouse audit sync" pulls from their GET /api/v1/audit-log.
add     The management API base URL and how to get a token: OAuth 2 client credentials against the tenant's
        identity provider, or (--bearer) a pasted bearer token. The client secret or the token is read from
        standard input (never from the command line), sealed at rest and never shown again. Entries go into
        the tenant named by --tenant (default: the source's name). Plain http only to a loopback host.
update  Changes only what is given; the sealed secret is kept unless --new-secret reads a new one from standard
        input. --bearer, or --token-endpoint and --client-id, change the way of getting a token (with
        --new-secret). --scope "" removes the scope. Another base URL or tenant syncs from the beginning.
remove  The entries already synced stay in the tenant's trail.
The server for that data dir must be stopped (while it runs, use the console or the API).`;

async function readSecret(input: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of input) text += String(chunk);
  return text.replace(/\r?\n$/, '');
}

/** Zod's issues as lines; the secret's field is named by where it comes from. */
function issuesOf(error: ZodError): UsageError {
  return new UsageError(
    error.issues
      .map((issue) => {
        const path = issue.path.join('.');
        const what =
          /secret|token$/.test(path) && path !== 'auth.tokenEndpoint' ? `${path} (standard input)` : path;
        return `${what}: ${issue.message}`;
      })
      .join('\n'),
  );
}

interface AuthOptions {
  'token-endpoint'?: string;
  'client-id'?: string;
  scope?: string;
  bearer?: boolean;
}

/** `source update`'s way of getting a token: the stored kind unless the options name another. */
function authPatchOf(
  values: AuthOptions,
  storedKind: 'bearer' | 'client-credentials',
  secret: string | undefined,
): AuditSourcePatch['auth'] {
  const clientOptions = values['token-endpoint'] ?? values['client-id'] ?? values.scope;
  if (values.bearer && clientOptions !== undefined)
    throw new UsageError('--bearer does not go with --token-endpoint, --client-id or --scope.');
  const kind = values.bearer ? 'bearer' : clientOptions !== undefined ? 'client-credentials' : storedKind;
  if (kind === 'bearer')
    return values.bearer || secret !== undefined
      ? { kind, ...(secret === undefined ? {} : { token: secret }) }
      : undefined;
  if (clientOptions === undefined && secret === undefined) return undefined;
  return {
    kind,
    ...(values['token-endpoint'] === undefined ? {} : { tokenEndpoint: values['token-endpoint'] }),
    ...(values['client-id'] === undefined ? {} : { clientId: values['client-id'] }),
    ...(values.scope === undefined ? {} : { scope: values.scope }),
    ...(secret === undefined ? {} : { clientSecret: secret }),
  };
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
      'new-secret': { type: 'boolean' },
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
      if (!parsed.success) throw issuesOf(parsed.error);
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
    case 'update': {
      if (!name || positionals.length !== 2) throw new UsageError(SOURCE_HELP);
      const secret = values['new-secret'] ? await readSecret(input) : undefined;
      await withOfflineTenant(dataDir, 'source update', async (tenant) => {
        const stored = await tenant.auditSources.get(name.toLowerCase());
        if (!stored) throw new CommandError(`No source is named ${name}.`);
        const auth = authPatchOf(values, stored.auth.kind, secret);
        const parsed = AuditSourcePatchSchema.safeParse({
          ...(values['base-url'] === undefined ? {} : { baseUrl: values['base-url'] }),
          ...(values.tenant === undefined ? {} : { tenant: values.tenant }),
          ...(auth ? { auth } : {}),
        });
        if (!parsed.success) throw issuesOf(parsed.error);
        if (Object.keys(parsed.data).length === 0)
          throw new UsageError('Nothing to change: give at least one option.\n\n' + SOURCE_HELP);
        const changed = await tenant.auditSources.patch(stored.name, parsed.data).catch(usageOf);
        await tenant.recorder.recordOfflineAction(
          'AuditSources.Modify',
          user,
          { name: changed.name, ...parsed.data },
          [{ type: 'AuditSource', id: changed.name, name: changed.name }],
        );
        out.write(
          `Changed source ${changed.name} (tenant ${changed.tenant}, ${changed.auth.kind}${secret === undefined ? ', secret kept' : ', new secret'}): ${changed.baseUrl}\n`,
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
