import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { AgentGroup, Environment } from '../../../api/types.js';
import { MONOSPACE_FONT } from '../../../theme/theme.js';

export interface AgentGroupsSectionProps {
  agentGroups: AgentGroup[];
  environments: Environment[];
}

/** Read-only: which agent group runs in which environment, and whether it can run passthroughs at all. */
export function AgentGroupsSection({ agentGroups, environments }: AgentGroupsSectionProps) {
  const environmentName = (id: string) =>
    environments.find((environment) => environment.id === id)?.name ?? id;
  return (
    <Box component="section" aria-labelledby="agent-groups-heading">
      <Typography variant="h2" id="agent-groups-heading" sx={{ mb: 1 }}>
        Agent groups
      </Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 2 }}>
        Where values apply. Passthrough runs only on cross-platform agent groups; legacy groups do not support
        it.
      </Typography>
      <TableContainer component={Paper} variant="outlined">
        <Table size="small" aria-label="Agent groups">
          <TableHead>
            <TableRow>
              <TableCell>Name</TableCell>
              <TableCell>Environment</TableCell>
              <TableCell>Platform</TableCell>
              <TableCell>Listener (configured)</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {agentGroups.map((group) => (
              <TableRow key={group.id}>
                <TableCell>{group.name}</TableCell>
                <TableCell>{environmentName(group.environmentId)}</TableCell>
                <TableCell>
                  {group.platform === 'cross-platform' ? (
                    <Chip size="small" color="primary" variant="outlined" label="Cross-platform" />
                  ) : (
                    <Chip size="small" variant="outlined" label="Legacy (no passthrough)" />
                  )}
                </TableCell>
                <TableCell sx={{ fontFamily: MONOSPACE_FONT, fontSize: '0.8125rem' }}>
                  {group.platform === 'cross-platform' ? `${group.host}:${group.port}` : '—'}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
    </Box>
  );
}
