import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import CloseIcon from '@mui/icons-material/Close';
import type { PolicyGrantType } from '../../../api/types.js';
import { GRANT_LABEL } from '../policy-labels.js';
import { JwtClaimsEditor } from './JwtClaimsEditor.js';
import { newGrant, type GrantDraft, type PolicyProblems } from './policy-draft.js';

const GRANT_CHOICES: { type: PolicyGrantType; hint: string }[] = [
  { type: 'apiKey', hint: 'Callers send a key created under API keys' },
  { type: 'jwt', hint: 'Callers send a bearer token from an identity provider' },
  { type: 'public', hint: 'Everyone, without credentials' },
];

export interface GrantsEditorProps {
  grants: GrantDraft[];
  onChange: (grants: GrantDraft[]) => void;
  problems: PolicyProblems;
}

function GrantFields({
  grant,
  index,
  onChange,
  problems,
}: {
  grant: GrantDraft;
  index: number;
  onChange: (grant: GrantDraft) => void;
  problems: PolicyProblems;
}) {
  const path = `grants.${index}`;
  const number = index + 1;
  if (grant.type === 'public') {
    return (
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        Everyone may call these endpoints, without credentials. It cannot be combined with other grants.
      </Typography>
    );
  }
  if (grant.type === 'apiKey') {
    return (
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
        <TextField
          size="small"
          label={`Grant ${number} header name`}
          value={grant.headerName}
          onChange={(event) => onChange({ ...grant, headerName: event.target.value })}
          error={problems[`${path}.headerName`] !== undefined}
          helperText={problems[`${path}.headerName`] ?? 'The header callers send the key in.'}
          sx={{ flex: '1 1 220px' }}
        />
        <TextField
          size="small"
          label={`Grant ${number} query parameter name`}
          value={grant.queryName}
          onChange={(event) => onChange({ ...grant, queryName: event.target.value })}
          error={problems[`${path}.queryName`] !== undefined}
          helperText={
            problems[`${path}.queryName`] ?? 'Optional: also accept the key in this query parameter.'
          }
          sx={{ flex: '1 1 220px' }}
        />
      </Box>
    );
  }
  return (
    <>
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
        <TextField
          size="small"
          label={`Grant ${number} issuer`}
          value={grant.issuer}
          onChange={(event) => onChange({ ...grant, issuer: event.target.value })}
          error={problems[`${path}.issuer`] !== undefined}
          helperText={problems[`${path}.issuer`] ?? 'Keys come from its discovery document.'}
          placeholder="https://login.example.com/tenant"
          sx={{ flex: '2 1 300px' }}
        />
        <TextField
          size="small"
          label={`Grant ${number} audience`}
          value={grant.audience}
          onChange={(event) => onChange({ ...grant, audience: event.target.value })}
          error={problems[`${path}.audience`] !== undefined}
          helperText={problems[`${path}.audience`]}
          sx={{ flex: '1 1 200px' }}
        />
      </Box>
      <JwtClaimsEditor
        path={path}
        grantNumber={number}
        claims={grant.claims}
        onChange={(claims) => onChange({ ...grant, claims })}
        problems={problems}
      />
    </>
  );
}

/** Who may call: public, API key (header and query names) or JWT (issuer, audience, claim rules). */
export function GrantsEditor({ grants, onChange, problems }: GrantsEditorProps) {
  const [menuAnchor, setMenuAnchor] = useState<HTMLElement | null>(null);
  const replace = (grant: GrantDraft) =>
    onChange(grants.map((candidate) => (candidate.key === grant.key ? grant : candidate)));
  const add = (type: PolicyGrantType) => {
    setMenuAnchor(null);
    onChange([...grants, newGrant(type)]);
  };
  return (
    <Box component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
      <Typography component="legend" variant="subtitle1" sx={{ mb: 0.5 }}>
        Grants
      </Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1.5 }}>
        A request is admitted when it satisfies any one grant.
      </Typography>
      {grants.map((grant, index) => (
        <Paper
          key={grant.key}
          variant="outlined"
          component="section"
          aria-label={`Grant ${index + 1}: ${GRANT_LABEL[grant.type]}`}
          sx={{ p: 2, mb: 1.5 }}
        >
          <Box sx={{ display: 'flex', alignItems: 'center', mb: 1.5 }}>
            <Typography variant="subtitle2" sx={{ flexGrow: 1 }}>
              Grant {index + 1}: {GRANT_LABEL[grant.type]}
            </Typography>
            <IconButton
              size="small"
              aria-label={`Remove grant ${index + 1} (${GRANT_LABEL[grant.type]})`}
              onClick={() => onChange(grants.filter((candidate) => candidate.key !== grant.key))}
            >
              <CloseIcon fontSize="small" />
            </IconButton>
          </Box>
          <GrantFields grant={grant} index={index} onChange={replace} problems={problems} />
        </Paper>
      ))}
      {problems.grants ? <FormHelperText error>{problems.grants}</FormHelperText> : null}
      <Button
        size="small"
        startIcon={<AddIcon />}
        aria-haspopup="menu"
        aria-expanded={menuAnchor ? 'true' : undefined}
        aria-controls={menuAnchor ? 'add-grant-menu' : undefined}
        onClick={(event) => setMenuAnchor(event.currentTarget)}
        disabled={grants.length >= 10}
      >
        Add grant
      </Button>
      <Menu
        id="add-grant-menu"
        anchorEl={menuAnchor}
        open={menuAnchor !== null}
        onClose={() => setMenuAnchor(null)}
      >
        {GRANT_CHOICES.map((choice) => (
          <MenuItem key={choice.type} onClick={() => add(choice.type)}>
            <ListItemText primary={GRANT_LABEL[choice.type]} secondary={choice.hint} />
          </MenuItem>
        ))}
      </Menu>
    </Box>
  );
}
