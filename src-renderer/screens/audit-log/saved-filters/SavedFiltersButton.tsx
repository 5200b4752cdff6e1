import { useState } from 'react';
import Button from '@mui/material/Button';
import BookmarksIcon from '@mui/icons-material/BookmarksOutlined';
import type { AuditLogFilter } from '../../../api/types.js';
import { SavedFiltersDialog } from './SavedFiltersDialog.js';

export interface SavedFiltersButtonProps {
  filter: AuditLogFilter;
  onApply: (filter: AuditLogFilter) => void;
}

/** Opens the saved filters: save the current one under a name, apply or delete one saved before. */
export function SavedFiltersButton({ filter, onApply }: SavedFiltersButtonProps) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button startIcon={<BookmarksIcon />} aria-haspopup="dialog" onClick={() => setOpen(true)}>
        Saved filters
      </Button>
      {open ? <SavedFiltersDialog filter={filter} onApply={onApply} onClose={() => setOpen(false)} /> : null}
    </>
  );
}
