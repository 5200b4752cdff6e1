import { useMemo, useState } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ApiSummary } from '../../../api/types.js';
import type { AgentGroup } from '../../../api/types.js';
import { SearchField } from '../SearchField.js';
import { ApisTable } from './ApisTable.js';

export interface ApisOverviewProps {
  apis: ApiSummary[];
  agentGroups: AgentGroup[];
  canImport: boolean;
}

function matches(search: string, api: ApiSummary): boolean {
  const wanted = search.trim().toLowerCase();
  return (
    !wanted ||
    [api.name, api.basePath, api.description].some((value) => value?.toLowerCase().includes(wanted))
  );
}

/** The search field, the count, and the table of APIs. */
export function ApisOverview({ apis, agentGroups, canImport }: ApisOverviewProps) {
  const [search, setSearch] = useState('');
  const shown = useMemo(() => apis.filter((api) => matches(search, api)), [apis, search]);
  return (
    <>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mb: 2, flexWrap: 'wrap' }}>
        <SearchField label="Search APIs" value={search} onChange={setSearch} sx={{ minWidth: 300 }} />
        <Typography variant="body2" sx={{ color: 'text.secondary' }} role="status">
          {shown.length === apis.length
            ? `${apis.length} ${apis.length === 1 ? 'API' : 'APIs'}`
            : `${shown.length} of ${apis.length} APIs`}
          {canImport ? ' · drop a document anywhere on this screen to import it' : ''}
        </Typography>
      </Box>
      <ApisTable apis={shown} agentGroups={agentGroups} />
    </>
  );
}
