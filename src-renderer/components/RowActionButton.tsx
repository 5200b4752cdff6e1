import type { ReactElement } from 'react';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';

export interface RowActionButtonProps {
  /** The tooltip, e.g. "Delete". */
  title: string;
  /** The accessible name, which names the row's item, e.g. "Delete policy Orders". */
  label: string;
  /** A small icon, e.g. `<DeleteIcon fontSize="small" />`. */
  icon: ReactElement;
  onClick: () => void;
}

/** A small icon button with a tooltip, for a table row's actions. */
export function RowActionButton({ title, label, icon, onClick }: RowActionButtonProps) {
  return (
    <Tooltip title={title}>
      <IconButton size="small" aria-label={label} onClick={onClick}>
        {icon}
      </IconButton>
    </Tooltip>
  );
}
