import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import ApiIcon from '@mui/icons-material/Api';
import RocketLaunchIcon from '@mui/icons-material/RocketLaunch';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { RouterLink } from '../../../router/RouterLink.js';

const SAMPLES = [
  ['orders-api.openapi.yaml', 'OpenAPI 3.0, YAML'],
  ['inventory-api.openapi.json', 'OpenAPI 3.1, JSON'],
  ['legacy-billing.swagger.yaml', 'Swagger 2.0, YAML'],
] as const;

export interface ApisEmptyStateProps {
  /** Absent when the user may not import. */
  onImport?: () => void;
}

/** No API yet: what an API is here, how to add one, and sample documents to start with. */
export function ApisEmptyState({ onImport }: ApisEmptyStateProps) {
  return (
    <Paper variant="outlined" sx={{ p: 4, textAlign: 'center' }} data-testid="apis-empty-state">
      <ApiIcon sx={{ fontSize: 48, color: 'text.secondary' }} aria-hidden />
      <Typography variant="h2" sx={{ mt: 1, mb: 1 }}>
        No APIs yet
      </Typography>
      <Typography sx={{ color: 'text.secondary', maxWidth: 640, mx: 'auto', mb: 3 }}>
        An API is defined by its OpenAPI document: its base path comes from the server URL, and its operations
        from the paths. Import one, then create a Passthrough API to forward its requests to another system.
      </Typography>
      {onImport ? (
        <Box sx={{ display: 'flex', gap: 2, justifyContent: 'center', flexWrap: 'wrap' }}>
          <Button
            variant="contained"
            size="large"
            startIcon={<RocketLaunchIcon />}
            component={RouterLink}
            href="/getting-started"
          >
            Getting started (2 minutes)
          </Button>
          <Button variant="outlined" size="large" startIcon={<UploadFileIcon />} onClick={onImport}>
            Import an OpenAPI document
          </Button>
        </Box>
      ) : (
        <Typography>Your role may view APIs but not import them.</Typography>
      )}
      <Box sx={{ mt: 3, textAlign: 'left', maxWidth: 640, mx: 'auto' }}>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          No document at hand? Gatehouse ships samples in its <code>resources/samples/</code> folder:
        </Typography>
        <Box component="ul" sx={{ mt: 0.5, mb: 0, color: 'text.secondary', typography: 'body2' }}>
          {SAMPLES.map(([file, kind]) => (
            <li key={file}>
              <code>{file}</code> ({kind})
            </li>
          ))}
        </Box>
      </Box>
    </Paper>
  );
}
