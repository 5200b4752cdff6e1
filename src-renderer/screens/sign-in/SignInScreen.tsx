import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useDocumentTitle } from '../../hooks/use-document-title.js';
import type { SignInNotice } from '../../session/session-context.js';
import { PasteCredentialForm } from './PasteCredentialForm.js';
import { ServerLine } from './ServerLine.js';
import { ExternalSignInSection } from './ExternalSignInSection.js';

function CommandLine({ children }: { children: string }) {
  return (
    <Box
      component="pre"
      sx={{
        bgcolor: 'action.hover',
        p: 1.5,
        borderRadius: 1,
        overflowX: 'auto',
        my: 1,
        fontSize: '0.875rem',
      }}
    >
      <code>{children}</code>
    </Box>
  );
}

/** Shown whenever there is no session: how to get a sign-in link, and a place to paste a link or a token. */
export default function SignInScreen({ notice }: { notice?: SignInNotice }) {
  useDocumentTitle('Sign in');
  return (
    <Box component="main" sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', p: 3 }}>
      <Paper sx={{ p: 4, width: '100%', maxWidth: 640 }}>
        <Typography variant="h1" gutterBottom>
          Sign in to Gatehouse
        </Typography>
        <ServerLine />
        {notice ? (
          <Alert severity={notice.severity} sx={{ mb: 2 }}>
            <AlertTitle>{notice.title}</AlertTitle>
            {notice.detail}
          </Alert>
        ) : null}
        <Typography variant="h2" gutterBottom>
          With a sign-in link
        </Typography>
        <Typography>
          When it starts, <code>gatehouse serve</code> prints a one-time link to the console. Open it in this
          browser; it works once and for ten minutes. For a new link, restart the server:
        </Typography>
        <CommandLine>gatehouse serve</CommandLine>
        <Typography sx={{ color: 'text.secondary' }}>
          The desktop app signs you in by itself on this computer's server.
        </Typography>
        <ExternalSignInSection />
        <Divider sx={{ my: 3 }} />
        <Typography variant="h2" gutterBottom>
          With a token
        </Typography>
        <Typography>
          Print a bearer token for the roles you need on the machine that runs the server (roles: Operator,
          Administrator, Auditor), then paste it below:
        </Typography>
        <CommandLine>gatehouse token --roles Auditor</CommandLine>
        <PasteCredentialForm />
      </Paper>
    </Box>
  );
}
