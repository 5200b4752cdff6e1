import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { ServedGatehouse } from '../gatehouse-fixture.js';

const ORDERS_API = fileURLToPath(
  new URL('../../../resources/samples/orders-api.openapi.yaml', import.meta.url),
);

/** The management API as a test calls it, with an Operator token from `gatehouse token`. */
export interface ManagementApi {
  call: <T>(method: string, path: string, body?: unknown) => Promise<T>;
  /** Imports the sample Orders API (base path /orders-api/v1) on the default agent group. */
  importOrdersApi: (name?: string) => Promise<{ id: string; basePath: string }>;
}

export async function managementApi(gatehouse: ServedGatehouse): Promise<ManagementApi> {
  const token = await gatehouse.token('Operator', { user: 'e2e-setup' });
  const send = async (method: string, path: string, body: BodyInit | undefined, type?: string) => {
    const response = await fetch(`${gatehouse.controlPanelUrl}${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(type ? { 'Content-Type': type } : {}) },
      body,
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
    return text ? (JSON.parse(text) as unknown) : undefined;
  };
  return {
    call: async <T>(method: string, path: string, body?: unknown) =>
      (await send(
        method,
        path,
        body === undefined ? undefined : JSON.stringify(body),
        body === undefined ? undefined : 'application/json',
      )) as T,
    async importOrdersApi(name) {
      const query = name ? `?name=${encodeURIComponent(name)}` : '';
      const imported = (await send(
        'POST',
        `/api/v1/apis${query}`,
        await readFile(ORDERS_API),
        'application/yaml',
      )) as {
        api: { id: string; basePath: string };
      };
      return imported.api;
    },
  };
}
