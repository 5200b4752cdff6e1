import Button from '@mui/material/Button';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import type { AuditTimeline } from '../../../api/types.js';
import { timelineLabel } from './timeline-data.js';

export interface AuditTimelineTableProps {
  timeline: AuditTimeline;
  onNarrow: (bucket: AuditTimeline['buckets'][number]) => void;
}

/** The chart's numbers as a table (its text alternative): the non-empty hours or days, each one narrowable. */
export function AuditTimelineTable({ timeline, onNarrow }: AuditTimelineTableProps) {
  const unit = timeline.interval === 'day' ? 'day' : 'hour';
  const rows = timeline.buckets.filter((bucket) => bucket.total > 0);
  return (
    <TableContainer sx={{ maxHeight: 320, mt: 1 }}>
      <Table size="small" stickyHeader aria-label="Audit activity per time bucket">
        <TableHead>
          <TableRow>
            <TableCell component="th" scope="col">
              {unit === 'day' ? 'Day (UTC)' : 'Hour (UTC)'}
            </TableCell>
            <TableCell component="th" scope="col" align="right">
              Entries
            </TableCell>
            {timeline.series.map((series) => (
              <TableCell key={series.name} component="th" scope="col" align="right">
                {series.name}
              </TableCell>
            ))}
            <TableCell component="th" scope="col">
              <span className="visually-hidden">Narrow</span>
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((bucket) => {
            const label = timelineLabel(bucket.start, timeline.interval);
            return (
              <TableRow key={bucket.start}>
                <TableCell component="th" scope="row">
                  {label}
                </TableCell>
                <TableCell align="right">{bucket.total}</TableCell>
                {bucket.counts.map((n, index) => (
                  <TableCell key={timeline.series[index]!.name} align="right">
                    {n}
                  </TableCell>
                ))}
                <TableCell>
                  <Button size="small" onClick={() => onNarrow(bucket)} aria-label={`Show only ${label}`}>
                    Show only this {unit}
                  </Button>
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
