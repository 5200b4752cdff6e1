import Chip from '@mui/material/Chip';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { GridColDef } from '@mui/x-data-grid';
import type { MonitoringRecord } from '../../api/types.js';
import { formatLocal, formatUtc } from '../../format/date-time.js';
import { MONOSPACE_FONT } from '../../theme/theme.js';
import { OUTCOME, formatDuration, statusColor } from './outcome-labels.js';

const common = { sortable: false, filterable: false, disableColumnMenu: true } as const;

export const MONITORING_COLUMNS: GridColDef<MonitoringRecord>[] = [
  {
    ...common,
    field: 'time',
    headerName: 'Time (UTC)',
    width: 190,
    renderCell: ({ row }) => (
      <Tooltip title={`Local time: ${formatLocal(row.time)}`} placement="bottom-start">
        <span>{formatUtc(row.time, true).replace(' UTC', '')}</span>
      </Tooltip>
    ),
  },
  { ...common, field: 'method', headerName: 'Method', width: 80 },
  {
    ...common,
    field: 'path',
    headerName: 'Path',
    flex: 1,
    minWidth: 160,
    renderCell: ({ row }) => (
      <span style={{ fontFamily: MONOSPACE_FONT, fontSize: '0.8125rem' }}>{row.path}</span>
    ),
  },
  {
    ...common,
    field: 'apiName',
    headerName: 'API',
    width: 130,
    renderCell: ({ row }) =>
      row.apiName ? (
        row.apiName
      ) : (
        <Typography component="span" variant="body2" sx={{ color: 'text.secondary', fontStyle: 'italic' }}>
          No API
        </Typography>
      ),
  },
  {
    ...common,
    field: 'operation',
    headerName: 'Operation',
    flex: 0.6,
    minWidth: 120,
    valueGetter: (_value, row) => row.operation ?? '—',
  },
  {
    ...common,
    field: 'status',
    headerName: 'Status',
    width: 80,
    renderCell: ({ row }) => (
      <Chip size="small" color={statusColor(row.status)} label={row.status || 'none'} />
    ),
  },
  {
    ...common,
    field: 'outcome',
    headerName: 'Outcome',
    width: 140,
    renderCell: ({ row }) => <Chip size="small" variant="outlined" label={OUTCOME[row.outcome].label} />,
  },
  {
    ...common,
    field: 'durationMs',
    headerName: 'Duration',
    width: 95,
    align: 'right',
    headerAlign: 'right',
    valueGetter: (_value, row) => formatDuration(row.durationMs),
  },
  { ...common, field: 'agentGroupName', headerName: 'Agent group', width: 120 },
];
