import { useState } from 'react';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { ConnectServerDialog } from '../connect-server/ConnectServerDialog.js';
import { serverLabel } from '../../server/server-address.js';

/** Which Control Panel this sign-in is for, and a way to another one (a team server). */
export function ServerLine() {
  const [connecting, setConnecting] = useState(false);
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'baseline', mb: 2, flexWrap: 'wrap' }}>
      <Typography>
        Server: <strong data-testid="sign-in-server">{serverLabel()}</strong>
      </Typography>
      <Button size="small" onClick={() => setConnecting(true)}>
        Change server
      </Button>
      {connecting ? <ConnectServerDialog onClose={() => setConnecting(false)} /> : null}
    </Stack>
  );
}
