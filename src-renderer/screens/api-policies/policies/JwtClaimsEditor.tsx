import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlinedIcon from '@mui/icons-material/DeleteOutlined';
import { newClaimRow, type ClaimRow, type PolicyProblems } from './policy-draft.js';

export interface JwtClaimsEditorProps {
  /** `grants.<index>`: where this grant's problems are keyed. */
  path: string;
  grantNumber: number;
  claims: ClaimRow[];
  onChange: (claims: ClaimRow[]) => void;
  problems: PolicyProblems;
}

/** Claim rules of a JWT grant: the token's claim must hold one of the accepted values. */
export function JwtClaimsEditor({ path, grantNumber, claims, onChange, problems }: JwtClaimsEditorProps) {
  const update = (key: number, change: Partial<ClaimRow>) =>
    onChange(claims.map((row) => (row.key === key ? { ...row, ...change } : row)));
  return (
    <Box sx={{ mt: 1 }}>
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1 }}>
        Claim rules (optional): the token's claim must hold one of the accepted values.
      </Typography>
      {claims.map((row, index) => (
        <Box key={row.key} sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', mb: 1 }}>
          <TextField
            size="small"
            label={`Grant ${grantNumber} claim ${index + 1}`}
            value={row.claim}
            onChange={(event) => update(row.key, { claim: event.target.value })}
            error={problems[`${path}.claims.${index}.claim`] !== undefined}
            helperText={problems[`${path}.claims.${index}.claim`]}
            placeholder="roles"
            sx={{ width: 200 }}
          />
          <TextField
            size="small"
            label={`Grant ${grantNumber} claim ${index + 1} accepted values`}
            value={row.values}
            onChange={(event) => update(row.key, { values: event.target.value })}
            error={problems[`${path}.claims.${index}.values`] !== undefined}
            helperText={problems[`${path}.claims.${index}.values`] ?? 'Comma-separated'}
            placeholder="orders.read, orders.admin"
            sx={{ flex: 1 }}
          />
          <IconButton
            aria-label={`Remove claim rule ${index + 1} of grant ${grantNumber}`}
            onClick={() => onChange(claims.filter((candidate) => candidate.key !== row.key))}
            sx={{ mt: 0.25 }}
          >
            <DeleteOutlinedIcon />
          </IconButton>
        </Box>
      ))}
      <Button size="small" startIcon={<AddIcon />} onClick={() => onChange([...claims, newClaimRow()])}>
        Add claim rule
      </Button>
    </Box>
  );
}
