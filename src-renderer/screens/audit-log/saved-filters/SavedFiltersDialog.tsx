import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Typography from '@mui/material/Typography';
import TextField from '@mui/material/TextField';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import { savedFiltersApi } from '../../../api/endpoints.js';
import type { AuditLogFilter, SavedFilter } from '../../../api/types.js';
import { FormDialog } from '../../../components/FormDialog.js';
import { ProblemAlert } from '../../../components/ProblemAlert.js';
import { useApiQuery } from '../../../hooks/use-api-query.js';
import { useApiClient } from '../../../session/session-context.js';
import { describeFilter } from './describe-filter.js';

export interface SavedFiltersDialogProps {
  filter: AuditLogFilter;
  onApply: (filter: AuditLogFilter) => void;
  onClose: () => void;
}

/** Save the current filter under a name; apply or delete the ones saved before (the user's own, on the server). */
export function SavedFiltersDialog({ filter, onApply, onClose }: SavedFiltersDialogProps) {
  const client = useApiClient();
  const saved = useApiQuery(
    'saved-audit-filters',
    async (api, signal) => (await savedFiltersApi.list(api, { signal })).items,
  );
  const [name, setName] = useState('');
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<unknown>(undefined);

  const run = (action: Promise<unknown>) => {
    setSaving(true);
    setFailure(undefined);
    action.then(
      () => {
        setSaving(false);
        saved.reload();
      },
      (error: unknown) => {
        setSaving(false);
        setFailure(error);
      },
    );
  };
  const save = () => {
    if (!name.trim()) return;
    run(savedFiltersApi.create(client, { name: name.trim(), filter: { ...filter } }).then(() => setName('')));
  };
  const remove = (item: SavedFilter) => run(savedFiltersApi.remove(client, item.id));

  return (
    <FormDialog
      titleId="saved-filters-title"
      title="Saved filters"
      maxWidth="sm"
      submitLabel="Save current filter"
      saving={saving}
      failure={failure}
      failureContext="Saving the filter failed"
      onSubmit={save}
      onClose={onClose}
    >
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 2 }}>
        Current filter: {describeFilter(filter)}
      </Typography>
      <TextField
        label="Name"
        value={name}
        onChange={(event) => setName(event.target.value)}
        size="small"
        fullWidth
        autoFocus
        slotProps={{ htmlInput: { maxLength: 100 } }}
      />
      {saved.error ? (
        <Box sx={{ mt: 2 }}>
          <ProblemAlert error={saved.error} context="Loading the saved filters" onRetry={saved.reload} />
        </Box>
      ) : null}
      <List aria-label="Your saved filters" dense sx={{ mt: 1 }}>
        {(saved.data ?? []).map((item) => (
          <ListItem
            key={item.id}
            disableGutters
            secondaryAction={
              <IconButton edge="end" aria-label={`Delete ${item.name}`} onClick={() => remove(item)}>
                <DeleteIcon />
              </IconButton>
            }
          >
            <Button
              onClick={() => {
                onApply(item.filter);
                onClose();
              }}
              aria-label={`Apply ${item.name}`}
              sx={{ textTransform: 'none', justifyContent: 'flex-start', textAlign: 'left', mr: 5 }}
            >
              <Box component="span">
                <Box component="span" sx={{ display: 'block', fontWeight: 500 }}>
                  {item.name}
                </Box>
                <Box component="span" sx={{ display: 'block', color: 'text.secondary', fontSize: '0.8rem' }}>
                  {describeFilter(item.filter as AuditLogFilter)}
                </Box>
              </Box>
            </Button>
          </ListItem>
        ))}
      </List>
      {saved.data && saved.data.length === 0 ? (
        <Typography variant="body2" role="status">
          No saved filters yet.
        </Typography>
      ) : null}
    </FormDialog>
  );
}
