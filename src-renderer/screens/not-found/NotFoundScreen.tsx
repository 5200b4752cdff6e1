import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { PageHeader } from '../../components/PageHeader.js';
import { useLocation } from '../../router/hooks.js';

export default function NotFoundScreen() {
  const { pathname } = useLocation();
  return (
    <>
      <PageHeader title="Page not found" />
      <Typography sx={{ mb: 2 }}>
        The console has no page at <code>{pathname}</code>.
      </Typography>
      <Button variant="contained" href="/apis">
        Go to APIs
      </Button>
    </>
  );
}
