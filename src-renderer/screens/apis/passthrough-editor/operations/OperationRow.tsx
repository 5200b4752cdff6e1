import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import AltRouteIcon from '@mui/icons-material/AltRoute';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutlineOutlined';
import TuneIcon from '@mui/icons-material/Tune';
import { MONOSPACE_FONT } from '../../../../theme/theme.js';
import { MethodBadge } from '../../MethodBadge.js';
import type { OperationItem } from './operation-items.js';

export const OPERATION_ROW_HEIGHT = 56;

export interface OperationRowProps {
  id: string;
  item: OperationItem;
  position: number;
  setSize: number;
  /** Offset from the top of the list (virtualized rows are positioned absolutely). */
  top: number;
  selected: boolean;
  status: string;
  onClick: () => void;
}

/** One option of the operations list: method and path (or All operations), and whether it has its own entry. */
export function OperationRow({
  id,
  item,
  position,
  setSize,
  top,
  selected,
  status,
  onClick,
}: OperationRowProps) {
  const { operation } = item;
  return (
    <Box
      id={id}
      role="option"
      aria-selected={selected}
      aria-posinset={position}
      aria-setsize={setSize}
      data-operation-key={item.key}
      data-own-entry={item.ownEntry}
      onClick={onClick}
      sx={{
        position: 'absolute',
        top: 0,
        left: 0,
        width: '100%',
        height: OPERATION_ROW_HEIGHT,
        transform: `translateY(${top}px)`,
        display: 'flex',
        alignItems: 'center',
        gap: 1,
        px: 1.5,
        cursor: 'pointer',
        borderBottom: 1,
        borderColor: 'divider',
        bgcolor: selected ? 'action.selected' : undefined,
        '&:hover': { bgcolor: selected ? 'action.selected' : 'action.hover' },
      }}
    >
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 0 }}>
          {operation ? (
            <MethodBadge method={operation.method} />
          ) : (
            <AltRouteIcon fontSize="small" sx={{ color: 'primary.main' }} aria-hidden />
          )}
          <Typography
            component="span"
            noWrap
            title={operation?.path}
            sx={{
              fontFamily: operation ? MONOSPACE_FONT : undefined,
              fontSize: operation ? '0.85rem' : undefined,
              fontWeight: operation ? undefined : 500,
            }}
          >
            {operation ? operation.path : 'All operations'}
          </Typography>
        </Box>
        <Typography
          component="span"
          variant="caption"
          noWrap
          sx={{ display: 'block', color: 'text.secondary' }}
        >
          {status}
          {operation?.summary ? ` · ${operation.summary}` : ''}
        </Typography>
      </Box>
      {item.hasErrors ? (
        <ErrorOutlineIcon fontSize="small" sx={{ color: 'error.main' }} titleAccess="Has problems" />
      ) : item.ownEntry && operation ? (
        <TuneIcon fontSize="small" sx={{ color: 'primary.main' }} titleAccess="Has its own entry" />
      ) : null}
    </Box>
  );
}
