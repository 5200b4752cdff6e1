import type {
  AuditSource,
  AuditSourceInput,
  AuditSourcePatch,
  AuditSyncSummary,
} from '../../contracts/audit-source-schemas.js';
import { SECRET_MASK } from '../../contracts/constants.js';
import { ErrorCode } from '../../contracts/error-codes.js';
import type { SecretBox } from '../../config-store/secret-box.js';
import { conflict, notFound, validationProblem } from '../../http/problem.js';
import type { Database } from '../../storage/database.js';
import type { AuditSourceTable } from '../../storage/schema.js';

/** How a token is obtained, without the secret (kept sealed beside it). */
export type SourceAuth =
  | { kind: 'client-credentials'; tokenEndpoint: string; clientId: string; scope?: string }
  | { kind: 'bearer' };

/** A source with its secret, for the sync only: never returned by the API nor logged. */
export interface SourceWithSecret {
  name: string;
  tenant: string;
  baseUrl: string;
  auth: SourceAuth;
  secret: string;
}

/** Where a source's sync got to. Times are epoch milliseconds. */
export interface SyncState {
  /** Entries older than this were all synced (the end of the last completed walk). */
  syncedUntilMs?: number;
  /** A walk in progress: its pinned time range and the next page to read. */
  walk?: { startMs?: number; endMs: number; nextPage: number };
  last?: AuditSyncSummary;
}

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/** Secrets travel to these URLs: plain http only to this machine. */
function urlProblems(input: AuditSourceInput): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const check = (field: string, value: string) => {
    const url = new URL(value);
    if (url.protocol === 'http:' && !LOOPBACK.test(url.hostname))
      errors[field] = [
        'Use https: plain http is allowed only to a loopback host (localhost, 127.0.0.1, [::1]).',
      ];
    if (url.username || url.password) errors[field] = ['Credentials do not belong in the URL.'];
  };
  check('baseUrl', input.baseUrl);
  if (input.auth.kind === 'client-credentials') check('auth.tokenEndpoint', input.auth.tokenEndpoint);
  return errors;
}

function authOf(input: AuditSourceInput): SourceAuth {
  if (input.auth.kind === 'bearer') return { kind: 'bearer' };
  const { tokenEndpoint, clientId, scope } = input.auth;
  return { kind: 'client-credentials', tokenEndpoint, clientId, ...(scope ? { scope } : {}) };
}

function secretOf(input: AuditSourceInput): string | undefined {
  return input.auth.kind === 'bearer' ? input.auth.token : input.auth.clientSecret;
}

/** A patch's way of getting a token over the stored one; a new kind must be given whole (else 400). */
function mergedAuth(stored: SourceAuth, patch: AuditSourcePatch['auth']): AuditSourceInput['auth'] {
  if (!patch) return { ...stored };
  if (patch.kind === 'bearer') return patch;
  const kept = stored.kind === 'client-credentials' ? stored : undefined;
  const tokenEndpoint = patch.tokenEndpoint ?? kept?.tokenEndpoint;
  const clientId = patch.clientId ?? kept?.clientId;
  const errors: Record<string, string[]> = {};
  const required = ['Required when the way of getting a token changes.'];
  if (tokenEndpoint === undefined) errors['auth.tokenEndpoint'] = required;
  if (clientId === undefined) errors['auth.clientId'] = required;
  if (Object.keys(errors).length > 0) throw validationProblem(errors);
  const scope = patch.scope ?? kept?.scope;
  return {
    kind: 'client-credentials',
    tokenEndpoint: tokenEndpoint!,
    clientId: clientId!,
    ...(patch.clientSecret === undefined ? {} : { clientSecret: patch.clientSecret }),
    ...(scope ? { scope } : {}),
  };
}

/** The API's view of a row: the secret is only ever the mask. */
function viewOf(row: AuditSourceTable): AuditSource {
  const auth = JSON.parse(row.auth) as SourceAuth;
  const state = stateOf(row);
  const source: AuditSource = {
    name: row.name,
    tenant: row.tenant,
    baseUrl: row.base_url,
    auth:
      auth.kind === 'bearer'
        ? { kind: 'bearer', token: SECRET_MASK }
        : { ...auth, clientSecret: SECRET_MASK },
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
    interrupted: state.walk !== undefined,
  };
  if (state.syncedUntilMs !== undefined) source.syncedUntil = new Date(state.syncedUntilMs).toISOString();
  if (state.last) source.lastSync = state.last;
  return source;
}

function stateOf(row: Pick<AuditSourceTable, 'sync_state'>): SyncState {
  return row.sync_state ? (JSON.parse(row.sync_state) as SyncState) : {};
}

/**
 * The tenants' management APIs a trail is synced from, in the `audit_sources` table. The client secret or bearer
 * token is sealed with the data dir's secrets key before it reaches the database and unsealed only for a sync.
 */
export class AuditSourceStore {
  constructor(
    private readonly database: Database,
    private readonly box: SecretBox,
    private readonly now: () => number = Date.now,
  ) {}

  async list(): Promise<AuditSource[]> {
    const rows = await this.database.db.selectFrom('audit_sources').selectAll().orderBy('name').execute();
    return rows.map(viewOf);
  }

  async get(name: string): Promise<AuditSource | undefined> {
    const row = await this.row(name);
    return row ? viewOf(row) : undefined;
  }

  async create(input: AuditSourceInput): Promise<AuditSource> {
    const errors = urlProblems(input);
    const secret = secretOf(input);
    if (secret === undefined)
      errors[input.auth.kind === 'bearer' ? 'auth.token' : 'auth.clientSecret'] = [
        'Required for a new source.',
      ];
    if (Object.keys(errors).length > 0) throw validationProblem(errors);
    if (await this.row(input.name)) {
      throw conflict(ErrorCode.GH_ERR_ALREADY_EXISTS, `A source named ${input.name} already exists.`, {
        conflictingId: input.name,
        errors: { name: [`A source named ${input.name} already exists.`] },
      });
    }
    const at = this.now();
    const row: AuditSourceTable = {
      name: input.name,
      tenant: input.tenant ?? input.name,
      base_url: input.baseUrl,
      auth: JSON.stringify(authOf(input)),
      sealed_secret: this.box.seal(secret!),
      sync_state: null,
      created_at: at,
      updated_at: at,
    };
    await this.database.db.insertInto('audit_sources').values(row).execute();
    return viewOf(row);
  }

  /** Changes a source; a secret left out keeps the stored one (when the way of getting a token stays). */
  async update(name: string, input: AuditSourceInput): Promise<AuditSource> {
    const existing = await this.row(name);
    if (!existing) throw notFound(`No audit source is named ${name}.`);
    const errors = urlProblems(input);
    if (input.name !== name) errors.name = ['A source cannot be renamed; remove it and add it again.'];
    const secret = secretOf(input);
    const sameKind = (JSON.parse(existing.auth) as SourceAuth).kind === input.auth.kind;
    if (secret === undefined && !sameKind)
      errors[input.auth.kind === 'bearer' ? 'auth.token' : 'auth.clientSecret'] = [
        'Required when the way of getting a token changes.',
      ];
    if (Object.keys(errors).length > 0) throw validationProblem(errors);
    const tenant = input.tenant ?? input.name;
    const changes = {
      tenant,
      base_url: input.baseUrl,
      auth: JSON.stringify(authOf(input)),
      sealed_secret: secret === undefined ? existing.sealed_secret : this.box.seal(secret),
      // Another tenant or endpoint starts its trail from the beginning.
      sync_state:
        tenant === existing.tenant && input.baseUrl === existing.base_url ? existing.sync_state : null,
      updated_at: this.now(),
    };
    await this.database.db.updateTable('audit_sources').set(changes).where('name', '=', name).execute();
    return viewOf({ ...existing, ...changes });
  }

  /** Changes the fields given, over the stored ones; the sealed secret stays unless a new one is given. */
  async patch(name: string, patch: AuditSourcePatch): Promise<AuditSource> {
    const existing = await this.row(name);
    if (!existing) throw notFound(`No audit source is named ${name}.`);
    return this.update(name, {
      name,
      tenant: patch.tenant ?? existing.tenant,
      baseUrl: patch.baseUrl ?? existing.base_url,
      auth: mergedAuth(JSON.parse(existing.auth) as SourceAuth, patch.auth),
    });
  }

  async remove(name: string): Promise<AuditSource | undefined> {
    const existing = await this.row(name);
    if (!existing) return undefined;
    await this.database.db.deleteFrom('audit_sources').where('name', '=', name).execute();
    return viewOf(existing);
  }

  /** The source with its secret unsealed: for the sync's requests only. */
  async withSecret(name: string): Promise<{ source: SourceWithSecret; state: SyncState } | undefined> {
    const row = await this.row(name);
    if (!row) return undefined;
    return {
      source: {
        name: row.name,
        tenant: row.tenant,
        baseUrl: row.base_url,
        auth: JSON.parse(row.auth) as SourceAuth,
        secret: this.box.unseal(row.sealed_secret),
      },
      state: stateOf(row),
    };
  }

  async saveState(name: string, state: SyncState): Promise<void> {
    await this.database.db
      .updateTable('audit_sources')
      .set({ sync_state: JSON.stringify(state) })
      .where('name', '=', name)
      .execute();
  }

  private row(name: string): Promise<AuditSourceTable | undefined> {
    return this.database.db
      .selectFrom('audit_sources')
      .selectAll()
      .where('name', '=', name)
      .executeTakeFirst();
  }
}
