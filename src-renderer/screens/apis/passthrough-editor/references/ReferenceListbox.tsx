import { useEffect } from 'react';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Popper from '@mui/material/Popper';
import Typography from '@mui/material/Typography';
import { MONOSPACE_FONT } from '../../../../theme/theme.js';
import type { ReferenceItem } from './reference-catalog.js';

export interface ReferenceListboxProps {
  id: string;
  label: string;
  /** The field it belongs to; `null` closes the list. */
  anchor: HTMLElement | null;
  items: readonly ReferenceItem[];
  active: number;
  onChoose: (index: number) => void;
  onHover: (index: number) => void;
}

/** The references offered under a template field; the focus stays in the field (aria-activedescendant). */
export function ReferenceListbox({
  id,
  label,
  anchor,
  items,
  active,
  onChoose,
  onHover,
}: ReferenceListboxProps) {
  const open = anchor !== null && items.length > 0;
  useEffect(() => {
    if (open) document.getElementById(`${id}-${active}`)?.scrollIntoView({ block: 'nearest' });
  }, [open, id, active]);

  return (
    <Popper
      open={open}
      anchorEl={anchor}
      placement="bottom-start"
      sx={(theme) => ({ zIndex: theme.zIndex.modal + 1, minWidth: Math.max(anchor?.clientWidth ?? 0, 320) })}
    >
      <Paper elevation={8} sx={{ maxWidth: 640 }}>
        <Box
          component="ul"
          role="listbox"
          id={id}
          aria-label={label}
          data-testid="reference-listbox"
          sx={{ listStyle: 'none', m: 0, p: 0.5, maxHeight: 320, overflowY: 'auto' }}
        >
          {items.map((item, index) => (
            <Box
              component="li"
              key={item.label}
              id={`${id}-${index}`}
              role="option"
              aria-selected={index === active}
              // The field keeps the focus: a click must not blur it before the choice is taken.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => onChoose(index)}
              onMouseMove={() => index !== active && onHover(index)}
              sx={{
                px: 1.5,
                py: 0.75,
                borderRadius: 1,
                cursor: 'pointer',
                bgcolor: index === active ? 'action.selected' : undefined,
              }}
            >
              <Typography
                component="span"
                sx={{ display: 'block', fontFamily: MONOSPACE_FONT, fontSize: '0.85rem' }}
              >
                {item.label}
              </Typography>
              <Typography
                component="span"
                variant="caption"
                sx={{ display: 'block', color: 'text.secondary' }}
              >
                {item.detail}
              </Typography>
            </Box>
          ))}
        </Box>
      </Paper>
    </Popper>
  );
}
