import Chip from '@mui/material/Chip';
import Tooltip from '@mui/material/Tooltip';
import type { GridColDef } from '@mui/x-data-grid';
import type { AuditCategory, AuditEntry, AuditResource } from '../../api/types.js';
import { formatLocal, formatUtc } from '../../format/date-time.js';

export function describeResource(resource: AuditResource): string {
  const label =
    resource.name && resource.name !== resource.id ? `${resource.name} (${resource.id})` : resource.id;
  return `${resource.type}: ${label}`;
}

export function statusColor(status: number | undefined): 'default' | 'success' | 'warning' | 'error' {
  if (status === undefined) return 'default';
  if (status < 300) return 'success';
  if (status < 500) return 'warning';
  return 'error';
}

export const CATEGORY_LABEL: Record<AuditCategory, string> = {
  general: 'General',
  configuration: 'Configuration',
  agent: 'Agent',
};

const common = { sortable: false, filterable: false, disableColumnMenu: true } as const;

/** Gatehouse's own trail: its entries carry no `tenant`. */
export const OWN_TENANT = 'gatehouse';
/** The `tenant` filter value of the "All tenants" view. */
export const ALL_TENANTS = '*';

export const AUDIT_COLUMNS: GridColDef<AuditEntry>[] = [
  {
    ...common,
    field: 'tenant',
    headerName: 'Tenant',
    width: 130,
    valueGetter: (_value, row) => row.tenant ?? OWN_TENANT,
  },
  {
    ...common,
    field: 'timestamp',
    headerName: 'Time (UTC)',
    width: 170,
    renderCell: ({ row }) => (
      <Tooltip title={`Local time: ${formatLocal(row.timestamp)}`} placement="bottom-start">
        <span>{formatUtc(row.timestamp).replace(' UTC', '')}</span>
      </Tooltip>
    ),
  },
  { ...common, field: 'actionName', headerName: 'Action', flex: 1, minWidth: 170 },
  { ...common, field: 'userName', headerName: 'User', width: 130 },
  {
    ...common,
    field: 'category',
    headerName: 'Category',
    width: 120,
    renderCell: ({ row }) => <Chip size="small" variant="outlined" label={CATEGORY_LABEL[row.category]} />,
  },
  {
    ...common,
    field: 'statusCode',
    headerName: 'Status',
    width: 80,
    renderCell: ({ row }) =>
      row.statusCode === undefined ? (
        '—'
      ) : (
        <Chip size="small" color={statusColor(row.statusCode)} label={row.statusCode} />
      ),
  },
  {
    ...common,
    field: 'resources',
    headerName: 'Resources',
    flex: 1,
    minWidth: 140,
    valueGetter: (_value, row) => row.resources.map(describeResource).join('; '),
  },
];
