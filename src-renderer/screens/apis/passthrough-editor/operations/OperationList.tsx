import { useEffect, useId, useRef, type KeyboardEvent } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useVirtualizer } from '@tanstack/react-virtual';
import { SearchField } from '../../SearchField.js';
import { OperationRow, OPERATION_ROW_HEIGHT } from './OperationRow.js';
import { itemStatus, type OperationItem } from './operation-items.js';

export interface OperationListProps {
  items: readonly OperationItem[];
  operationCount: number;
  selectedKey: string;
  onSelect: (key: string) => void;
  filter: string;
  onFilterChange: (filter: string) => void;
  allOperationsConfigured: boolean;
}

const PAGE = 10;

/**
 * `All operations` and the API's operations, virtualized (only the rows in view are in the DOM, so thousands of
 * operations stay smooth). One tab stop; arrows, Page Up/Down, Home and End move the selection.
 */
export function OperationList({
  items,
  operationCount,
  selectedKey,
  onSelect,
  filter,
  onFilterChange,
  allOperationsConfigured,
}: OperationListProps) {
  const listId = useId();
  const scrollRef = useRef<HTMLDivElement>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const active = items.findIndex((item) => item.key === selectedKey);
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => OPERATION_ROW_HEIGHT,
    overscan: 4,
  });

  useEffect(() => {
    if (active >= 0) virtualizer.scrollToIndex(active, { align: 'auto' });
  }, [active, virtualizer]);

  const moveTo = (index: number) => {
    const item = items[Math.max(0, Math.min(items.length - 1, index))];
    if (item) onSelect(item.key);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const steps: Record<string, number> = {
      ArrowDown: active + 1,
      ArrowUp: active - 1,
      PageDown: active + PAGE,
      PageUp: active - PAGE,
      Home: 0,
      End: items.length - 1,
    };
    const target = steps[event.key];
    if (target === undefined) return;
    event.preventDefault();
    moveTo(active === -1 && event.key.startsWith('Arrow') ? 0 : target);
  };

  const shown = items.length - 1;
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', minHeight: 0, height: '100%' }}>
      <SearchField
        type="search"
        label="Filter operations"
        value={filter}
        onChange={onFilterChange}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown') {
            event.preventDefault();
            listRef.current?.focus();
            if (active <= 0) moveTo(items.length > 1 ? 1 : 0);
          }
        }}
      />
      <Typography variant="caption" role="status" sx={{ color: 'text.secondary', my: 0.75 }}>
        {filter.trim() ? `${shown} of ${operationCount} operations` : `${operationCount} operations`}
      </Typography>
      <Box
        ref={(element: HTMLDivElement | null) => {
          scrollRef.current = element;
          listRef.current = element;
        }}
        id={listId}
        role="listbox"
        aria-label="Operations"
        tabIndex={0}
        aria-activedescendant={active >= 0 ? `${listId}-${active}` : undefined}
        onKeyDown={onKeyDown}
        data-testid="operation-list"
        sx={{
          flex: 1,
          minHeight: 240,
          overflowY: 'auto',
          border: 1,
          borderColor: 'divider',
          borderRadius: 1,
          bgcolor: 'background.paper',
          '&:focus-visible [aria-selected="true"]': (theme) => ({
            outline: `2px solid ${theme.palette.primary.main}`,
            outlineOffset: -2,
          }),
        }}
      >
        <Box role="presentation" sx={{ position: 'relative', height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((virtual) => {
            const item = items[virtual.index]!;
            return (
              <OperationRow
                key={item.key}
                id={`${listId}-${virtual.index}`}
                item={item}
                position={virtual.index + 1}
                setSize={items.length}
                top={virtual.start}
                selected={item.key === selectedKey}
                status={itemStatus(item, allOperationsConfigured)}
                onClick={() => {
                  onSelect(item.key);
                  listRef.current?.focus();
                }}
              />
            );
          })}
        </Box>
      </Box>
    </Box>
  );
}
