import { useState, type SyntheticEvent } from 'react';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { ProblemAlert } from '../../components/ProblemAlert.js';
import { useSession } from '../../session/session-context.js';
import { ticketOf } from '../../session/sign-in-ticket.js';
import { connectTo } from '../../server/server-address.js';

/** A pasted sign-in link of another Control Panel (a team server): its console signs in with it there. */
function otherServersLink(text: string): string | undefined {
  if (!URL.canParse(text)) return undefined;
  const url = new URL(text);
  return url.origin !== window.location.origin && /^https?:$/.test(url.protocol) ? url.href : undefined;
}

/** Accepts a pasted one-time sign-in link or a bearer token from `gatehouse token`. */
export function PasteCredentialForm() {
  const { signInWithTicket, signInWithToken } = useSession();
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);

  const submit = async (event: SyntheticEvent) => {
    event.preventDefault();
    const value = text.trim();
    if (!value) return;
    setBusy(true);
    setError(undefined);
    try {
      const ticket = ticketOf(value);
      const elsewhere = ticket ? otherServersLink(value) : undefined;
      if (elsewhere) await connectTo(elsewhere);
      else if (ticket) await signInWithTicket(ticket);
      else await signInWithToken(value);
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  };

  return (
    <Stack component="form" spacing={2} onSubmit={(event) => void submit(event)} noValidate>
      <TextField
        label="Sign-in link or bearer token"
        value={text}
        onChange={(event) => setText(event.target.value)}
        multiline
        minRows={3}
        maxRows={8}
        autoComplete="off"
        spellCheck={false}
        helperText="Paste the link printed by npm start, gatehouse serve or gatehouse link (this server's or a team server's), or a token printed by gatehouse token."
        slotProps={{ htmlInput: { style: { fontFamily: 'monospace', wordBreak: 'break-all' } } }}
      />
      {error ? <ProblemAlert error={error} context="Sign-in failed" /> : null}
      <Button
        type="submit"
        variant="contained"
        loading={busy}
        disabled={!text.trim()}
        sx={{ alignSelf: 'flex-start' }}
      >
        Sign in
      </Button>
    </Stack>
  );
}
