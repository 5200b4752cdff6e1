import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Typography from '@mui/material/Typography';
import LoginIcon from '@mui/icons-material/Login';
import { sessionApi } from '../../api/endpoints.js';
import type { SignInOptions } from '../../api/types.js';
import { ProblemAlert } from '../../components/ProblemAlert.js';
import { desktopBridge } from '../../session/desktop-bridge.js';
import { beginExternalSignIn } from '../../session/external-sign-in.js';
import { useSession } from '../../session/session-context.js';

/** "Sign in with <identity provider>", when the Control Panel names one for the console (authorization code + PKCE). */
export function ExternalSignInSection() {
  const { client } = useSession();
  const [options, setOptions] = useState<SignInOptions | undefined>(undefined);
  const [failure, setFailure] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    sessionApi.options(client, { signal: controller.signal }).then(setOptions, (error: unknown) => {
      if (!controller.signal.aborted) console.warn('The sign-in options could not be read.', error);
    });
    return () => controller.abort();
  }, [client]);

  const external = options?.external;
  if (!external && !options?.externalUnavailable) return null;
  const start = async () => {
    if (!external) return;
    setBusy(true);
    setFailure(undefined);
    try {
      // The desktop app lets its window go to the provider's page, and come back.
      await beginExternalSignIn(external, (url) => desktopBridge()?.allowSignIn(url) ?? Promise.resolve());
    } catch (error) {
      setFailure(error);
      setBusy(false);
    }
  };
  return (
    <>
      <Divider sx={{ my: 3 }} />
      <Typography variant="h2" gutterBottom>
        With your organization&apos;s account
      </Typography>
      {external ? (
        <>
          <Typography sx={{ mb: 2 }}>
            This server trusts the identity provider <strong>{new URL(external.issuer).host}</strong>.
          </Typography>
          <Button variant="contained" startIcon={<LoginIcon />} loading={busy} onClick={() => void start()}>
            Sign in with the identity provider
          </Button>
        </>
      ) : (
        <Alert severity="warning">{options.externalUnavailable}</Alert>
      )}
      {failure ? <ProblemAlert error={failure} context="Signing in failed" /> : null}
    </>
  );
}
