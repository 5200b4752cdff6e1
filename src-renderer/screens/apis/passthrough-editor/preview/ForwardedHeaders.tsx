import { useId, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Collapse from '@mui/material/Collapse';
import ExpandLessIcon from '@mui/icons-material/ExpandLess';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { MONOSPACE_FONT } from '../../../../theme/theme.js';
import { describeOrigin, type ForwardedHeader } from './header-origins.js';

/**
 * The headers the gateway would send to the target for the sample request (lower-case names, masked), each with
 * the header rule that produced it.
 */
export function ForwardedHeaders({ headers }: { headers: ForwardedHeader[] }) {
  const listId = useId();
  const [open, setOpen] = useState(false);
  return (
    <Box sx={{ mt: 1 }}>
      <Button
        size="small"
        aria-expanded={open}
        aria-controls={listId}
        endIcon={open ? <ExpandLessIcon /> : <ExpandMoreIcon />}
        onClick={() => setOpen((value) => !value)}
      >
        Forwarded headers ({headers.length})
      </Button>
      <Collapse in={open} id={listId}>
        <Box
          component="dl"
          data-testid="forwarded-headers"
          sx={{
            display: 'grid',
            gridTemplateColumns: 'minmax(120px, max-content) 1fr',
            columnGap: 2,
            rowGap: 0.5,
            m: 0,
            mt: 1,
            fontFamily: MONOSPACE_FONT,
            fontSize: '0.8rem',
          }}
        >
          {headers.map(({ name, value, origin }, index) => (
            <Box
              key={`${name}-${index}`}
              sx={{ display: 'contents' }}
              data-header-origin={describeOrigin(origin)}
            >
              <Box component="dt" sx={{ color: 'text.secondary' }}>
                {name}
              </Box>
              <Box component="dd" sx={{ m: 0, wordBreak: 'break-all' }}>
                {value}
                <Box
                  component="span"
                  sx={{
                    display: 'block',
                    color: 'text.secondary',
                    fontFamily: 'inherit',
                    fontSize: '0.75rem',
                  }}
                >
                  from {describeOrigin(origin)}
                </Box>
              </Box>
            </Box>
          ))}
        </Box>
      </Collapse>
    </Box>
  );
}
