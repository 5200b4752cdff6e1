import { useId } from 'react';
import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';

export interface WebSocketSettingProps {
  allowWebSocket: boolean;
  onChange: (allowWebSocket: boolean) => void;
  readOnly: boolean;
}

/** Whether WebSocket connections to the endpoint are relayed to the target. */
export function WebSocketSetting({ allowWebSocket, onChange, readOnly }: WebSocketSettingProps) {
  const headingId = useId();
  const hintId = useId();
  return (
    <Box component="section" aria-labelledby={headingId}>
      <Typography variant="h3" id={headingId} sx={{ mb: 0.5 }}>
        WebSocket
      </Typography>
      <FormControlLabel
        control={
          <Switch
            checked={allowWebSocket}
            disabled={readOnly}
            onChange={(event) => onChange(event.target.checked)}
            slotProps={{ input: { 'aria-describedby': hintId } }}
          />
        }
        label="Relay WebSocket connections to the target"
      />
      <Typography id={hintId} variant="body2" sx={{ color: 'text.secondary' }}>
        A handshake (Upgrade: websocket) goes to the target URL above once the API policies accept it, and its
        origin must be an allowed one when CORS is on. Each session shows in API Monitoring with status 101,
        its duration and the bytes each way. Off: such requests get 400.
      </Typography>
    </Box>
  );
}
