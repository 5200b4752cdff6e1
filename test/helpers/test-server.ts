import { createLogger } from '../../src-server/core/logging/logger.js';
import { startGatehouse, type Gatehouse, type GatehouseOptions } from '../../src-server/app/gatehouse.js';
import { databaseOfDataDir } from './test-database.js';
import { openApiResponseCheck, type OpenApiResponseCheck } from './openapi-check.js';
import { tempDir } from './temp-dir.js';

export interface TestServer {
  gatehouse: Gatehouse;
  dataDir: string;
  url: string;
  gatewayUrl: string;
  /** A token of the built-in provider for the given roles. */
  token: (roles: string[], userName?: string) => Promise<string>;
  /**
   * fetch against the Control Panel with a bearer token for `roles` (Operator by default). Every answer of a
   * documented path is checked against the OpenAPI document the server serves: an undocumented status, media
   * type or body shape fails the test.
   */
  api: (
    path: string,
    init?: RequestInit & { roles?: string[]; userName?: string; token?: string | null },
  ) => Promise<Response>;
  close: () => Promise<void>;
}

/**
 * A real server on ephemeral ports over a temporary data dir, on the engine the suite runs on (SQLite, or a
 * database of its own on the test PostgreSQL server). `keepDataDir` lets a test restart a server on the same dir
 * (and database).
 */
export async function startTestServer(
  options: Partial<GatehouseOptions> & {
    keepDataDir?: boolean;
    /** Leave the start-up retention to its delay instead of running it before the test goes on. */
    deferStartUpJobs?: boolean;
  } = {},
): Promise<TestServer> {
  const dir = options.dataDir ? undefined : await tempDir();
  const dataDir = options.dataDir ?? dir!.path;
  const connectionString = await databaseOfDataDir(dataDir);
  const gatehouse = await startGatehouse({
    port: 0,
    gatewayPort: 0,
    env: {},
    logger: createLogger(process.env.GATEHOUSE_TEST_LOG ?? 'silent'),
    uiDir: undefined,
    ...options,
    settings: {
      ...(connectionString ? { 'ConnectionStrings:Gatehouse': connectionString } : {}),
      ...options.settings,
    },
    dataDir,
  });
  // Tests write records dated months ago straight into the store: the retention runs at start must be over first,
  // or they remove them after they are written (audit retention waits a few seconds after the start on SQLite).
  if (!options.deferStartUpJobs) await gatehouse.runStartUpJobs();
  await gatehouse.monitoring.store();
  const token = (roles: string[], userName = 'test-operator') => gatehouse.issueToken({ userName, roles });
  let documentCheck: Promise<OpenApiResponseCheck> | undefined;
  const checkAnswer = async (method: string, url: string, response: Response): Promise<void> => {
    documentCheck ??= openApiResponseCheck(gatehouse.controlPanelUrl());
    let check = await documentCheck;
    let problem = await check.problemsOf(method, url, response);
    if (problem !== undefined || (!check.documents(url) && new URL(url).pathname.startsWith('/api/'))) {
      // The Control Panel may have restarted with other routes (the audit log flag): read its document again.
      documentCheck = openApiResponseCheck(gatehouse.controlPanelUrl());
      check = await documentCheck;
      problem = await check.problemsOf(method, url, response);
    }
    if (problem !== undefined) throw new Error(`The answer does not match the OpenAPI document: ${problem}`);
  };
  return {
    gatehouse,
    dataDir,
    get url() {
      return gatehouse.controlPanelUrl();
    },
    get gatewayUrl() {
      return gatehouse.gatewayEndpoints()[0]!.url;
    },
    token,
    async api(path, init = {}) {
      const { roles = ['Operator'], userName, token: explicit, ...rest } = init;
      const headers = new Headers(rest.headers);
      const bearer = explicit === undefined ? await token(roles, userName) : explicit;
      if (bearer !== null) headers.set('Authorization', `Bearer ${bearer}`);
      if (rest.body !== undefined && typeof rest.body === 'string' && !headers.has('Content-Type')) {
        headers.set('Content-Type', 'application/json');
      }
      const url = `${gatehouse.controlPanelUrl()}${path}`;
      const response = await fetch(url, { ...rest, headers });
      await checkAnswer((rest.method ?? 'GET').toUpperCase(), url, response);
      return response;
    },
    async close() {
      await gatehouse.close();
      if (dir && !options.keepDataDir) await dir.remove();
    },
  };
}
