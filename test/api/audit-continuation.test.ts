import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry, NewAuditEntry } from '../../src-server/core/audit/audit-entry.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

interface Page {
  items: AuditEntry[];
  pageNumber: number;
  pageSize: number;
  totalCount: number;
  continuationToken?: string;
}

interface Problem {
  status: number;
  code: string;
  errors?: Record<string, string[]>;
}

const BASE = Date.parse('2026-03-01T00:00:00.000Z');
const TENANT = 'walk';

function entry(seconds: number, userName = 'alice'): NewAuditEntry {
  return {
    actionName: 'Process.Deploy',
    userName,
    timestamp: new Date(BASE + seconds * 1_000).toISOString(),
    parameters: { seconds },
    resources: [],
    category: 'general',
  };
}

describe('continuation tokens of GET /api/v1/audit-log over HTTP', () => {
  let server: TestServer;
  let clock = BASE + 86_400_000;

  beforeAll(async () => {
    server = await startTestServer({
      settings: { 'Flags:EnableServiceApiAuditLogRoute': true },
      now: () => new Date(clock),
    });
    // Two entries per second for 100 seconds: equal timestamps must be ordered (and continued) by id.
    const first = Array.from({ length: 200 }, (_, k) => entry(Math.floor(k / 2) * 10));
    await server.gatehouse.audit.store.importEntries(first, undefined, { tenant: TENANT });
  });
  afterAll(() => server.close());

  async function get(query: string): Promise<Response> {
    return server.api(`/api/v1/audit-log?${query}`, { roles: ['Auditor'] });
  }

  async function page(query: string): Promise<Page> {
    const response = await get(query);
    expect(response.status, await response.clone().text()).toBe(200);
    return (await response.json()) as Page;
  }

  async function refused(query: string): Promise<Problem> {
    const response = await get(query);
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    return (await response.json()) as Problem;
  }

  let arrivals = 0;
  /** What other writers do meanwhile: newer entries on top, and an older tenant export synced into the middle. */
  async function newEntriesArrive(): Promise<void> {
    arrivals += 1;
    await server.gatehouse.audit.store.importEntries(
      [entry(5_000 + arrivals), entry(5_000 + arrivals, 'bob'), entry(arrivals * 37 + 3, 'carol')],
      undefined,
      { tenant: TENANT },
    );
  }

  async function idsNow(): Promise<number[]> {
    return (await page(`tenant=${TENANT}&PageSize=200`)).items.map((item) => item.id);
  }

  it('walks every page once while entries arrive: no entry twice, none of those present at the start missed', async () => {
    const atStart = await idsNow();
    const seen: number[] = [];
    let current = await page(`tenant=${TENANT}&PageSize=17`);
    expect(current.pageNumber).toBe(1);
    const pageNumbers = [current.pageNumber];
    for (;;) {
      seen.push(...current.items.map((item) => item.id));
      if (!current.continuationToken) break;
      await newEntriesArrive();
      current = await page(
        `tenant=${TENANT}&continuationToken=${encodeURIComponent(current.continuationToken)}`,
      );
      pageNumbers.push(current.pageNumber);
      expect(current.pageSize).toBe(17);
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(atStart.filter((id) => !seen.includes(id))).toEqual([]);
    expect(pageNumbers).toEqual(pageNumbers.map((_, k) => k + 1));
    // In list order throughout: what arrived behind the walk's position is in it, where it belongs.
    const order = (await page(`tenant=${TENANT}&PageSize=200`)).items.map((item) => item.id);
    expect(seen).toEqual(order.filter((id) => seen.includes(id)));
  });

  it('is needed: counting up PageNumber under the same writes repeats entries', async () => {
    const seen: number[] = [];
    for (let number = 1; ; number += 1) {
      const current = await page(`tenant=${TENANT}&PageSize=17&PageNumber=${number}`);
      if (current.items.length === 0) break;
      seen.push(...current.items.map((item) => item.id));
      await newEntriesArrive();
    }
    expect(new Set(seen).size).toBeLessThan(seen.length);
  });

  it('gives a token with every page that has a next one, numbered pages included, and none on the last', async () => {
    const total = (await page(`tenant=${TENANT}`)).totalCount;
    const second = await page(`tenant=${TENANT}&PageSize=50&PageNumber=2`);
    expect(second.continuationToken).toBeTypeOf('string');
    const third = await page(
      `tenant=${TENANT}&PageSize=50&continuationToken=${encodeURIComponent(second.continuationToken!)}`,
    );
    expect(third.pageNumber).toBe(3);
    expect(third.items[0]!.id).toBe((await page(`tenant=${TENANT}&PageSize=50&PageNumber=3`)).items[0]!.id);
    const last = await page(`tenant=${TENANT}&PageSize=50&PageNumber=${Math.ceil(total / 50)}`);
    expect(last.items.length).toBeGreaterThan(0);
    expect(last).not.toHaveProperty('continuationToken');
    const past = await page(`tenant=${TENANT}&PageSize=50&PageNumber=${Math.ceil(total / 50) + 1}`);
    expect(past).not.toHaveProperty('continuationToken');
  });

  it('continues the same filters written in any case, with parameter names in any case', async () => {
    const first = await page(`tenant=${TENANT}&userName=alice&PageSize=5`);
    const next = await page(
      `TENANT=Walk&USERNAME=ALICE&CONTINUATIONTOKEN=${encodeURIComponent(first.continuationToken!)}`,
    );
    expect(next.pageNumber).toBe(2);
    expect(next.items.every((item) => item.userName === 'alice')).toBe(true);
  });

  it('refuses a malformed or altered token', async () => {
    for (const token of ['nonsense', 'c1..', 'c1.e30.AAAA', 'x'.repeat(600)]) {
      const problem = await refused(`tenant=${TENANT}&continuationToken=${token}`);
      expect(problem.code).toBe(
        token.length > 512 ? 'GH_ERR_VALIDATION' : 'GH_ERR_CONTINUATION_TOKEN_INVALID',
      );
      expect(Object.keys(problem.errors ?? {})).toEqual(['continuationToken']);
    }
    const { continuationToken } = await page(`tenant=${TENANT}&PageSize=5`);
    const [version, payload, signature] = continuationToken!.split('.');
    const forged = Buffer.from(
      JSON.stringify(
        (JSON.parse(Buffer.from(payload!, 'base64url').toString()) as unknown[]).map((v, k) =>
          k === 3 ? 1000 : v,
        ),
      ),
    ).toString('base64url');
    const problem = await refused(`tenant=${TENANT}&continuationToken=${version}.${forged}.${signature}`);
    expect(problem.code).toBe('GH_ERR_CONTINUATION_TOKEN_INVALID');
  });

  it('refuses a token with other filters, another PageSize, or a PageNumber', async () => {
    const { continuationToken } = await page(`tenant=${TENANT}&PageSize=5`);
    const token = encodeURIComponent(continuationToken!);
    for (const query of [
      `tenant=${TENANT}&userName=alice&continuationToken=${token}`,
      `continuationToken=${token}`,
      `tenant=${TENANT}&PageSize=6&continuationToken=${token}`,
      `tenant=${TENANT}&PageNumber=2&continuationToken=${token}`,
    ]) {
      expect((await refused(query)).code).toBe('GH_ERR_CONTINUATION_TOKEN_MISMATCH');
    }
    expect((await page(`tenant=${TENANT}&PageSize=5&continuationToken=${token}`)).pageNumber).toBe(2);
  });

  it('refuses a token older than 24 hours', async () => {
    const { continuationToken } = await page(`tenant=${TENANT}&PageSize=5`);
    const token = encodeURIComponent(continuationToken!);
    clock += 23 * 3_600_000;
    expect((await page(`tenant=${TENANT}&continuationToken=${token}`)).pageNumber).toBe(2);
    clock += 2 * 3_600_000;
    expect((await refused(`tenant=${TENANT}&continuationToken=${token}`)).code).toBe(
      'GH_ERR_CONTINUATION_TOKEN_EXPIRED',
    );
  });
});
