import { cp, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../../src-server/core/audit/audit-entry.js';
import type { MonitoringRecord } from '../../../src-server/core/monitoring/monitoring-record.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';
import { ENGINES, engineSettings } from '../../helpers/test-database.js';
import { tempDir } from '../../helpers/temp-dir.js';

const FIXTURE = fileURLToPath(new URL('../../fixtures/legacy-data-dir/', import.meta.url));

interface Expected {
  tenantId: string;
  apiId: string;
  apiKey: string;
  clientId: string;
  clientSecret: string;
  signedToken: string;
  jwks: { keys: { kid: string }[] };
  auditEntries: AuditEntry[];
  monitoringRecords: MonitoringRecord[];
}

describe.each(ENGINES)('a data dir written before the SQL storage, opened on %s', (engine) => {
  let dir: { path: string; remove: () => Promise<void> };
  let server: TestServer | undefined;
  let expected: Expected;

  beforeEach(async () => {
    dir = await tempDir('gatehouse-legacy-');
    await cp(join(FIXTURE, 'data'), dir.path, { recursive: true });
    expected = JSON.parse(await readFile(join(FIXTURE, 'expected.json'), 'utf8')) as Expected;
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    database = undefined;
    await dir.remove();
  });

  let database: Record<string, string> | undefined;
  /** Retention off: the fixture's entries are older than the default period by now. */
  const start = async () => {
    database ??= await engineSettings(engine);
    return startTestServer({
      dataDir: dir.path,
      keepDataDir: true,
      settings: { ...database, 'Audit:RetentionDays': 3650, 'Monitoring:RetentionDays': 3650 },
    });
  };

  it('converts without loss: audit entries with their ids, monitoring records, configuration, documents, keys', async () => {
    server = await start();
    const auditor = await server.token(['Auditor']);
    const auditPage = (await (
      await fetch(`${server.url}/api/v1/audit-log?PageSize=200`, {
        headers: { Authorization: `Bearer ${auditor}` },
      })
    ).json()) as { items: AuditEntry[]; totalCount: number };
    // The flag set in the fixture lives in appsettings.json, which stays: the audit route is on.
    expect(auditPage.totalCount).toBeGreaterThanOrEqual(expected.auditEntries.length);
    const converted = auditPage.items.filter(
      (item) => item.id <= Math.max(...expected.auditEntries.map((e) => e.id)),
    );
    expect(converted).toEqual(expected.auditEntries);
    // A new entry continues after the highest old id, also past ids that were removed.
    const newest = auditPage.items[0]!;
    expect(newest.id).toBeGreaterThan(21);

    const monitoring = (await (await server.api('/api/v1/monitoring/requests?PageSize=100')).json()) as {
      data: MonitoringRecord[];
    };
    expect(monitoring.data).toEqual(expected.monitoringRecords);

    const api = (await (await server.api(`/api/v1/apis/${expected.apiId}`)).json()) as { id: string };
    expect(api.id).toBe(expected.apiId);
    const document = await server.api(`/api/v1/apis/${expected.apiId}/document`);
    expect(document.status).toBe(200);
    expect(await document.text()).toBe(
      await readFile(
        join(
          FIXTURE,
          'data',
          'config',
          'documents',
          (await readdir(join(FIXTURE, 'data', 'config', 'documents')))[0]!,
        ),
        'utf8',
      ),
    );
    expect(server.gatehouse.config.store.data.tenant.id).toBe(expected.tenantId);

    // The keys came along: the old token verifies, the JWKS is the same, the client secret and API key work.
    const jwks = (await (await fetch(`${server.url}/oauth2/jwks`)).json()) as { keys: { kid: string }[] };
    expect(jwks.keys.map((key) => key.kid)).toEqual(expected.jwks.keys.map((key) => key.kid));
    expect(
      (
        await fetch(`${server.url}/api/v1/audit-log?PageSize=1`, {
          headers: { Authorization: `Bearer ${expected.signedToken}` },
        })
      ).status,
    ).toBe(200);
    const token = await fetch(`${server.url}/oauth2/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: expected.clientId,
        client_secret: expected.clientSecret,
      }),
    });
    expect(token.status).toBe(200);
    await server.gatehouse.gateway.settled();
    const gateway = await fetch(`${server.gatewayUrl}/orders-api/v1/orders/A-9`, {
      headers: { 'X-API-Key': expected.apiKey },
    });
    // The upstream of the fixture is gone: the key is accepted and the request forwarded (then fails upstream).
    expect(gateway.status).not.toBe(401);
    expect(gateway.status).not.toBe(403);

    // The old files were moved aside, not deleted; the secrets key stays where it was.
    const names = await readdir(dir.path);
    const aside = names.find((name) => name.startsWith('pre-sql-'));
    expect(aside).toBeDefined();
    expect(names).not.toContain('audit');
    expect(names).not.toContain('monitoring');
    expect((await readdir(join(dir.path, aside!))).sort()).toEqual(['audit', 'config', 'keys', 'monitoring']);
    expect(await readdir(join(dir.path, 'keys'))).toEqual(['secrets.key']);
  });

  it('converts once: a restart reads the database and finds nothing left to convert', async () => {
    server = await start();
    await server.close();
    server = await start();
    const page = (await (await server.api('/api/v1/audit-log/export?format=ndjson')).text())
      .trim()
      .split('\n');
    expect(page.length).toBeGreaterThanOrEqual(expected.auditEntries.length);
    expect((await readdir(dir.path)).filter((name) => name.startsWith('pre-sql-'))).toHaveLength(1);
  });

  it('refuses, changing nothing, when an entry does not match the digest stored with it', async () => {
    const segment = join(dir.path, 'audit', 'log', '00000001.g0.seg');
    const bytes = await readFile(segment);
    // Flip a byte of the first entry's stored digest (after the 8-byte frame header and the 2 kind/version
    // bytes), then fix the frame's checksum so the frame itself reads as valid.
    bytes[8 + 2]! ^= 0xff;
    const { crc32 } = await import('node:zlib');
    const length = bytes.readUInt32LE(0);
    bytes.writeUInt32LE(crc32(bytes.subarray(8, 8 + length), crc32(bytes.subarray(0, 4))), 4);
    await writeFile(segment, bytes);
    await expect(start()).rejects.toThrow(/does not match the content digest/);
    expect((await readdir(dir.path)).some((name) => name.startsWith('pre-sql-'))).toBe(false);
    expect((await stat(join(dir.path, 'config', 'store.json'))).isFile()).toBe(true);
  });
});
