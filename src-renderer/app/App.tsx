import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import CssBaseline from '@mui/material/CssBaseline';
import Typography from '@mui/material/Typography';
import { ThemeProvider } from '@mui/material/styles';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { NotifierProvider } from '../notifications/NotifierProvider.js';
import SignInScreen from '../screens/sign-in/SignInScreen.js';
import { useSession } from '../session/session-context.js';
import { SessionProvider } from '../session/SessionProvider.js';
import { theme } from '../theme/theme.js';
import { AppShell } from './AppShell.js';

function SessionGate() {
  const { state } = useSession();
  if (state.status === 'starting') {
    return (
      <Box role="status" sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center' }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
          <CircularProgress size={24} aria-hidden />
          <Typography>Signing in…</Typography>
        </Box>
      </Box>
    );
  }
  if (state.status === 'signed-out') return <SignInScreen notice={state.notice} />;
  return <AppShell />;
}

export function App() {
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <LocalizationProvider dateAdapter={AdapterDayjs}>
        <NotifierProvider>
          <SessionProvider>
            <SessionGate />
          </SessionProvider>
        </NotifierProvider>
      </LocalizationProvider>
    </ThemeProvider>
  );
}
