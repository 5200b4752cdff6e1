import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import AccountCircleIcon from '@mui/icons-material/AccountCircle';
import LogoutIcon from '@mui/icons-material/Logout';
import DnsIcon from '@mui/icons-material/Dns';
import { useState } from 'react';
import { ConnectServerDialog } from '../screens/connect-server/ConnectServerDialog.js';
import { serverLabel } from '../server/server-address.js';
import { useIdentity, useSession } from '../session/session-context.js';
import { ReconnectingIndicator } from './ReconnectingIndicator.js';
import { ThemeModeMenu } from './ThemeModeMenu.js';
import { ShortcutsButton } from './shortcuts/ShortcutsButton.js';

export function TopBar() {
  const { isDesktop, signOut } = useSession();
  const identity = useIdentity();
  const [connecting, setConnecting] = useState(false);
  const server = serverLabel();
  return (
    <AppBar position="fixed" sx={{ zIndex: (theme) => theme.zIndex.drawer + 1 }} enableColorOnDark>
      <Toolbar sx={{ gap: 2 }}>
        <Typography component="p" variant="h6" sx={{ fontWeight: 500, whiteSpace: 'nowrap' }}>
          Gatehouse
        </Typography>
        <Button
          color="inherit"
          size="small"
          startIcon={<DnsIcon aria-hidden />}
          onClick={() => setConnecting(true)}
          aria-label={`Server: ${server}. Change server`}
          data-testid="server-address"
          sx={{ textTransform: 'none', whiteSpace: 'nowrap' }}
        >
          {server}
        </Button>
        {connecting ? <ConnectServerDialog onClose={() => setConnecting(false)} /> : null}
        <ReconnectingIndicator />
        <Box sx={{ flexGrow: 1 }} />
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }} aria-label="Signed-in user">
          <AccountCircleIcon aria-hidden />
          <Typography data-testid="signed-in-user" sx={{ whiteSpace: 'nowrap' }}>
            {identity.userName}
          </Typography>
          <Stack
            direction="row"
            spacing={0.5}
            component="ul"
            aria-label="Roles"
            sx={{ m: 0, p: 0, listStyle: 'none' }}
          >
            {identity.roles.map((role) => (
              <li key={role}>
                <Chip
                  size="small"
                  label={role}
                  sx={{ bgcolor: 'rgba(255,255,255,0.16)', color: 'inherit' }}
                />
              </li>
            ))}
          </Stack>
        </Stack>
        <ShortcutsButton />
        <ThemeModeMenu />
        {isDesktop ? null : (
          <Button color="inherit" startIcon={<LogoutIcon />} onClick={() => signOut()}>
            Sign out
          </Button>
        )}
      </Toolbar>
    </AppBar>
  );
}
