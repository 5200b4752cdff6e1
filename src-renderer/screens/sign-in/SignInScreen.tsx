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
          <code>npm start</code> and <code>gatehouse serve</code> print a one-time link to the console when
          they start; it works once and for ten minutes. For a fresh one, run this in the folder of your
          Gatehouse clone, on the machine that runs the server, and open the link it prints — in this tab's
          address bar, or paste it below:
        </Typography>
        <CommandLine>npx gatehouse link</CommandLine>
        <Typography sx={{ color: 'text.secondary' }}>
          Add <code>--data-dir DIR</code> when the server runs on another data dir. The desktop app signs you
          in by itself.
        </Typography>
        <ExternalSignInSection />
        <Divider sx={{ my: 3 }} />
        <Typography variant="h2" gutterBottom>
          With a token
        </Typography>
        <Typography>
          Print a bearer token for the role you need (Administrator configures APIs and passthroughs; Operator
          also tenant settings; Auditor only reads), then paste it below:
        </Typography>
        <CommandLine>npx gatehouse token --roles Administrator</CommandLine>
        <PasteCredentialForm />
      </Paper>
    </Box>
  );
}
