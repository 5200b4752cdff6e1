import { useState } from 'react';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { FormDialog } from '../../components/FormDialog.js';
import { connectTo, onThisComputer, parseServerAddress, serverAddress } from '../../server/server-address.js';
import { desktopBridge } from '../../session/desktop-bridge.js';

/** Moves the console to another Control Panel (a team server), or back to this computer's in the desktop app. */
export function ConnectServerDialog({ onClose }: { onClose: () => void }) {
  const [address, setAddress] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const [failure, setFailure] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);
  const desktop = desktopBridge() !== undefined;

  const go = async (origin: string | null) => {
    setBusy(true);
    setFailure(undefined);
    try {
      await connectTo(origin);
    } catch (caught) {
      setFailure(caught);
      setBusy(false);
    }
  };

  const submit = () => {
    const parsed = parseServerAddress(address);
    if (!parsed.ok) {
      setError(parsed.message);
      return;
    }
    setError(undefined);
    void go(parsed.origin);
  };

  return (
    <FormDialog
      titleId="connect-server-title"
      title="Connect to a Control Panel"
      maxWidth="sm"
      submitLabel="Connect"
      saving={busy}
      failure={failure}
      failureContext="Connecting failed"
      onSubmit={submit}
      onClose={onClose}
    >
      <Typography sx={{ mb: 2 }}>
        Connected to <strong>{onThisComputer() ? "this computer's Gatehouse" : serverAddress()}</strong>. The
        console of the server you connect to opens here; you sign in there with its sign-in link or its
        identity provider.
      </Typography>
      <TextField
        label="Control Panel address"
        value={address}
        onChange={(event) => setAddress(event.target.value)}
        placeholder="https://gatehouse.example.com:4700"
        error={error !== undefined}
        helperText={error ?? 'The address gatehouse serve printed on the team server (Control Panel).'}
        fullWidth
        autoFocus
        autoComplete="url"
        spellCheck={false}
      />
      {desktop && !onThisComputer() ? (
        <Button sx={{ mt: 2 }} onClick={() => void go(null)} disabled={busy}>
          Back to this computer
        </Button>
      ) : null}
    </FormDialog>
  );
}
