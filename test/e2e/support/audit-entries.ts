import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface GeneratedEntry {
  /** The id at the platform: the newest entry has the highest. */
  id: number;
  actionName: string;
  userName: string;
  timestamp: string;
  category: 'general' | 'configuration' | 'agent';
  statusCode: number;
  parameters: Record<string, unknown>;
  resources: { type: string; id: string; name: string }[];
  agentGroup: { id: string; name: string };
}

const ACTIONS = ['Processes.Deploy', 'EnvironmentVariables.Modify', 'Processes.Activate', 'Roles.Modify'];
export const IMPORTED_USERS = ['alice', 'bob', 'carol'];

/**
 * Entries as a platform export would hold them: one every 20 minutes back from `newest`, users and actions in
 * rotation. Recent enough that retention keeps them.
 */
export function generateEntries(count: number, newest: Date): GeneratedEntry[] {
  return Array.from({ length: count }, (_, index) => ({
    id: 5_000 + count - index,
    actionName: ACTIONS[index % ACTIONS.length]!,
    userName: IMPORTED_USERS[index % IMPORTED_USERS.length]!,
    timestamp: new Date(newest.getTime() - index * 20 * 60_000).toISOString(),
    category: 'configuration',
    statusCode: index % 17 === 0 ? 422 : 200,
    parameters: { processId: `process-${index}`, version: index % 7, options: { dryRun: index % 2 === 0 } },
    resources: [{ type: 'Process', id: `process-${index}`, name: `Order sync ${index}` }],
    agentGroup: { id: 'ag-eu', name: 'EU agents' },
  }));
}

export async function writeNdjson(dir: string, name: string, entries: GeneratedEntry[]): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, entries.map((entry) => JSON.stringify(entry)).join('\n') + '\n');
  return file;
}
