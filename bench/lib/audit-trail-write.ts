/**
 * A write to the audit trail through the Control Panel's own routes, for the query shapes measured just after one
 * (`Shape.afterWrite`): a saved filter of the audit viewer is created and deleted again, each audited (so two
 * entries, whose parameters hold words, go into the trail and its full-text index). The Auditor's token may do it.
 */
export async function writeToTrail(url: string, headers: Record<string, string>, i: number): Promise<void> {
  const created = await fetch(`${url}/api/v1/audit-log/saved-filters`, {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: `bench write ${Date.now()} ${i}`, filter: { search: `written ${i}` } }),
  });
  const saved = (await created.json()) as { id?: string };
  if (created.status !== 201 || saved.id === undefined)
    throw new Error(`saving a filter: ${created.status} ${JSON.stringify(saved)}`);
  const deleted = await fetch(`${url}/api/v1/audit-log/saved-filters/${saved.id}`, {
    method: 'DELETE',
    headers,
  });
  await deleted.arrayBuffer();
  if (deleted.status !== 204) throw new Error(`deleting a saved filter: ${deleted.status}`);
}

/** The entries one `writeToTrail` adds to the trail. */
export const ENTRIES_PER_WRITE = 2;
