/** A cell the export wrote with a leading quote so spreadsheets don't run it as a formula: the quote comes off. */
const GUARDED_FORMULA = /^'[=+\-@\t\r]/;

/** Columns that name an audit export (Gatehouse's, or one with the platform's names). */
export function isAuditCsvHeader(columns: readonly string[]): boolean {
  const has = (...names: string[]) => names.some((name) => columns.includes(name));
  return has('actionName', 'action') && has('timestamp', 'timestampUtc') && has('userName', 'user');
}

function unguarded(cell: string): string {
  return GUARDED_FORMULA.test(cell) ? cell.slice(1) : cell;
}

const INTEGER = /^-?\d+$/;

/** `EU agents (ag-eu)`, as the export writes an agent group. */
function agentGroupOf(cell: string): { id: string; name: string } | undefined {
  const match = /^(.*) \(([^()]*)\)$/s.exec(cell);
  return match ? { name: match[1]!, id: match[2]! } : undefined;
}

/** JSON cells (resources) whose text does not parse stay text: the entry reader then ignores them. */
function jsonOf(cell: string): unknown {
  try {
    return JSON.parse(cell) as unknown;
  } catch (error) {
    return { unreadable: (error as Error).message };
  }
}

/**
 * A row of Gatehouse's CSV export (columns by their header name, so any order) → the record `fileEntryOf` reads.
 * Empty cells are absent values; numbers, the agent group and the resources' JSON are read back from their text.
 */
export function recordOfCsvRow(
  columns: readonly string[],
  cells: readonly string[],
): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  columns.forEach((column, index) => {
    const raw = cells[index];
    // An empty user is a user name the export wrote as an empty cell; other empty cells are absent values.
    if (raw === '' && (column === 'userName' || column === 'user')) record[column] = '';
    if (raw === undefined || raw === '') return;
    const cell = unguarded(raw);
    switch (column) {
      case 'id':
      case 'sourceId':
      case 'statusCode':
        record[column] = INTEGER.test(cell) ? Number(cell) : cell;
        break;
      case 'agentGroup':
        record.agentGroup = agentGroupOf(cell);
        break;
      case 'resources':
        record.resources = jsonOf(cell);
        break;
      case 'tenant':
        // The export names Gatehouse's own trail, whose entries carry no tenant.
        if (cell !== 'gatehouse') record.tenant = cell;
        break;
      default:
        record[column] = cell;
    }
  });
  return record;
}
