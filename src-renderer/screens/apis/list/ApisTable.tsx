import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { ApiSummary } from '../../../api/types.js';
import type { AgentGroup } from '../../../api/types.js';
import { MONOSPACE_FONT } from '../../../theme/theme.js';
import { agentGroupNames } from '../agent-group-names.js';
import { apiDetailsPath } from '../api-paths.js';
import { PassthroughActionButton } from '../PassthroughActionButton.js';
import { PassthroughStatusChip } from '../PassthroughStatusChip.js';
import { passthroughStatusOf } from '../passthrough-status.js';

export interface ApisTableProps {
  apis: ApiSummary[];
  agentGroups: AgentGroup[];
}

const top = { verticalAlign: 'top' } as const;

export function ApisTable({ apis, agentGroups }: ApisTableProps) {
  return (
    // Positioned, so that nothing inside (visually hidden text) reaches past its scrolling box.
    <TableContainer component={Paper} variant="outlined" sx={{ position: 'relative' }}>
      <Table size="small" aria-label="APIs">
        <TableHead>
          <TableRow>
            <TableCell>Name</TableCell>
            <TableCell>Version</TableCell>
            <TableCell>Base path</TableCell>
            <TableCell>Agent groups</TableCell>
            <TableCell align="right">Operations</TableCell>
            <TableCell>Passthrough</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {apis.map((api) => (
            <TableRow key={api.id} data-api-name={api.name} hover>
              <TableCell sx={{ ...top, maxWidth: 360 }}>
                <Link href={apiDetailsPath(api.id)} sx={{ fontWeight: 500 }}>
                  {api.name}
                </Link>
                {api.description ? (
                  <Typography
                    variant="body2"
                    sx={{
                      color: 'text.secondary',
                      display: '-webkit-box',
                      WebkitLineClamp: 2,
                      WebkitBoxOrient: 'vertical',
                      overflow: 'hidden',
                    }}
                    title={api.description}
                  >
                    {api.description}
                  </Typography>
                ) : null}
              </TableCell>
              <TableCell sx={top}>
                {api.version}
                <Typography variant="body2" component="div" sx={{ color: 'text.secondary' }}>
                  {api.specVersion === '2.0' ? 'Swagger 2.0' : `OpenAPI ${api.specVersion}`}
                </Typography>
              </TableCell>
              <TableCell
                sx={{
                  ...top,
                  fontFamily: MONOSPACE_FONT,
                  fontSize: '0.8125rem',
                  overflowWrap: 'anywhere',
                  minWidth: 120,
                }}
              >
                {api.basePath}
              </TableCell>
              <TableCell sx={top}>
                <Box component="ul" sx={{ m: 0, p: 0, listStyle: 'none' }}>
                  {agentGroupNames(api.agentGroupIds, agentGroups).map((name) => (
                    <li key={name}>{name}</li>
                  ))}
                </Box>
              </TableCell>
              <TableCell sx={top} align="right" data-testid="operation-count">
                {api.operationCount.toLocaleString('en')}
              </TableCell>
              <TableCell sx={top}>
                <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'flex-start', gap: 0.75 }}>
                  <PassthroughStatusChip status={passthroughStatusOf(api, agentGroups)} />
                  <PassthroughActionButton api={api} variant="text" />
                </Box>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
